#!/usr/bin/env python3
"""Writes programs with one ExecuTorch release's own serializer, for the
release verdict check (release-verdicts.sh).

Run with a release's et-python on PYTHONPATH (../shared/tools/et-python,
setup.sh with the release tag as REF):
    PYTHONPATH=~/.cache/et-python-v0.4.0 python3 release_files.py OUT_DIR TAG

Each program is one method, forward(x) = x + c (aten::add.out, a constant c
and a memory-planned output), in a variant of what the release's schema
holds: `plain`, and where the release has them, `half` (Half tensors),
`uint16` (UInt16 tensors), `mutable` (a memory-planned tensor with an
initial state in mutable_data_segments), `device` (a planned buffer on
CUDA) and `external` (c an external constant, from 0.6 on, with the
release's own .ptd beside it: 0.6's tensor table, or 0.7's named data).
Each is serialized as that release's exporter does by default: the
constant segment extracted from 0.2 on. Writes OUT_DIR/TAG-VARIANT.pte
(and OUT_DIR/TAG-external.ptd).
"""

import dataclasses
import inspect
import os
import sys

from executorch.exir import schema
from executorch.exir._serialize import _program
from executorch.exir.scalar_type import ScalarType


def make(cls, **values):
    """`cls` with the fields this release has, the others left out."""
    names = {field.name for field in dataclasses.fields(cls)}
    return cls(**{key: value for key, value in values.items() if key in names})


def has_field(cls, name):
    return any(field.name == name for field in dataclasses.fields(cls))


def allocation(offset):
    return make(schema.AllocationDetails, memory_id=1, memory_offset=offset,
                memory_offset_low=offset, memory_offset_high=0)


def tensor(dtype, data=0, offset=None, extra=None, memory_id=1):
    info = allocation(offset) if offset is not None else None
    if info is not None and memory_id != 1:
        info.memory_id = memory_id
    return schema.EValue(make(
        schema.Tensor, scalar_type=dtype, storage_offset=0, sizes=[4],
        dim_order=[0], requires_grad=False, layout=0, constant_buffer_idx=data,
        data_buffer_idx=data, allocation_info=info,
        shape_dynamism=schema.TensorShapeDynamism.STATIC,
        extra_tensor_info=extra))


def program(values, buffers, constants, plan_fields=None):
    """One method, forward(x) = x + c, over `values` (x, c, alpha, out)."""
    chain = schema.Chain(
        inputs=[0], outputs=[3],
        instructions=[schema.Instruction(schema.KernelCall(
            op_index=0, args=[0, 1, 2, 3, 3]))],
        stacktrace=None)
    plan = make(
        schema.ExecutionPlan, name="forward",
        container_meta_type=schema.ContainerMetadata("", ""),
        values=values, inputs=[0], outputs=[3], chains=[chain],
        operators=[schema.Operator(name="aten::add", overload="out")],
        delegates=[], non_const_buffer_sizes=buffers,
        **(plan_fields or {}))
    return make(
        schema.Program, version=0, execution_plan=[plan],
        constant_buffer=[schema.Buffer(storage=b"")] + [
            schema.Buffer(storage=data) for data in constants],
        backend_delegate_data=[], segments=[],
        constant_segment=(schema.SubsegmentOffsets(segment_index=0, offsets=[])
                          if hasattr(schema, "SubsegmentOffsets") else None),
        mutable_data_segments=[], named_data=[])


def serialize(prog, mutable=None):
    params = inspect.signature(_program.serialize_pte_binary).parameters
    if "pte_file" in params:
        return _program.serialize_pte_binary(
            _program.PTEFile(program=prog, mutable_data=mutable))
    kwargs = {}
    if "extract_constant_segment" in params:
        kwargs["extract_constant_segment"] = True
    if mutable is not None:
        kwargs["mutable_data"] = mutable
    return _program.serialize_pte_binary(prog, **kwargs)


def variants():
    one = schema.EValue(schema.Int(1))
    weight = bytes(16)

    def basic(dtype, extra_values=()):
        values = [tensor(dtype, offset=0), tensor(dtype, data=1), one,
                  tensor(dtype, offset=16)] + list(extra_values)
        return program(values, [0, 64], [weight])

    yield "plain", basic(ScalarType.FLOAT), None
    yield "half", basic(ScalarType.HALF), None
    if hasattr(ScalarType, "UINT16"):
        yield "uint16", basic(ScalarType.UINT16), None
    if has_field(schema.Tensor, "extra_tensor_info"):
        state = tensor(ScalarType.FLOAT, data=1, offset=32,
                       extra=schema.ExtraTensorInfo(mutable_data_segments_idx=0))
        values = [tensor(ScalarType.FLOAT, offset=0),
                  tensor(ScalarType.FLOAT, data=1), one,
                  tensor(ScalarType.FLOAT, offset=16), state]
        yield ("mutable", program(values, [0, 64], [weight]),
               [schema.Buffer(storage=b""), schema.Buffer(storage=bytes(16))])
    if has_field(schema.ExecutionPlan, "non_const_buffer_device"):
        device = schema.NonConstBufferDevice(
            buffer_idx=1, device_type=schema.DeviceType.CUDA, device_index=0)
        values = [tensor(ScalarType.FLOAT, offset=0),
                  tensor(ScalarType.FLOAT, data=1), one,
                  tensor(ScalarType.FLOAT, offset=16)]
        yield ("device", program(values, [0, 64], [weight],
                                 {"non_const_buffer_device": [device]}), None)


def external_program():
    """forward(x) = x + c with c (4 floats) external under the name "c"."""
    one = schema.EValue(schema.Int(1))
    extra = schema.ExtraTensorInfo(
        fully_qualified_name="c", location=schema.TensorDataLocation.EXTERNAL)
    values = [tensor(ScalarType.FLOAT, offset=0),
              tensor(ScalarType.FLOAT, extra=extra), one,
              tensor(ScalarType.FLOAT, offset=16)]
    return program(values, [0, 64], [])


def external_data():
    """The .ptd of external_program, as the release's serializer writes it."""
    from executorch.exir._serialize import data_serializer as ds
    from executorch.extension.flat_tensor.serialize.serialize import (
        FlatTensorSerializer)
    weight = bytes(range(16))
    layout_class = getattr(ds, "TensorLayout", None)
    if layout_class is None:
        from executorch.extension.flat_tensor.serialize.flat_tensor_schema \
            import TensorLayout as layout_class
    layout = layout_class(ScalarType.FLOAT, [4], [0])
    if hasattr(ds, "TensorEntry"):  # 0.6: a tensor table
        payload = ds.DataPayload(
            buffers=[weight],
            fqn_to_tensor={"c": ds.TensorEntry(0, layout)})
    else:  # 0.7 on: named data with layouts
        payload = ds.DataPayload(
            buffers=[weight],
            named_data={"c": ds.DataEntry(0, 16, layout)})
    return bytes(FlatTensorSerializer().serialize(payload))


def main():
    out, tag = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    # 0.5's schema knows external tensors, but 0.5 has no data serializer.
    try:
        data = external_data() if hasattr(schema, "TensorDataLocation") else None
    except ImportError:
        data = None
    if data is not None:
        with open(os.path.join(out, f"{tag}-external.pte"), "wb") as file:
            file.write(bytes(serialize(external_program())))
        with open(os.path.join(out, f"{tag}-external.ptd"), "wb") as file:
            file.write(data)
        print(f"{tag}-external.pte {tag}-external.ptd")
    for name, prog, mutable in variants():
        data = serialize(prog, mutable)
        with open(os.path.join(out, f"{tag}-{name}.pte"), "wb") as file:
            file.write(bytes(data))
        print(f"{tag}-{name}.pte")


main()
