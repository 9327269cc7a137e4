#!/usr/bin/env python3
"""Writes programs whose kernel calls test a build's kernels, with
ExecuTorch's own serializer (for kernels_vs_runtime.py).

Run with et-python (../shared/tools/et-python) on PYTHONPATH:
    PYTHONPATH=~/.cache/et-python python3 kernel_programs.py OUT_DIR

OUT_DIR/kernels.pte has one method per case, each one kernel call over
memory-planned tensors (the runtime resolves kernels at load_method from
the operator's name and its tensor arguments' scalar types and dim orders;
it runs none of them here):
  add_float         aten::add.out, Float, contiguous: portable has it
  add_int_nhwc      aten::add.out, Int, 4-d channels-last dim order
  add_two_keys      aten::add.out twice: Float, and Long channels-last
  fft_r2c           aten::_fft_r2c.out: only the optimized library
  quantized_add     quantized_decomposed::add.out: the quantized library
  bucketize         aten::bucketize.Tensor_out: no library has it
  et_view           executorch_prim::et_view.default: a prim op from 0.2
  sym_max           executorch_prim::sym_max.Scalar: a prim op from 1.0,
                    no tensor argument
  custom_sdpa       llama::custom_sdpa.out: the LLM custom ops
  cortex_add        cortex_m::quantized_add.out: the Cortex-M library
  mul_no_tensor     aten::mul.Scalar_out called with no tensor argument
OUT_DIR/small.pte has add_float and add_int_nhwc alone, for a selective
build of it.
"""

import dataclasses
import inspect
import os
import sys

from executorch.exir import schema
from executorch.exir._serialize import _program

FLOAT, INT, LONG = 6, 3, 4


def make(cls, **values):
    names = {field.name for field in dataclasses.fields(cls)}
    return cls(**{key: value for key, value in values.items() if key in names})


def tensor(dtype, sizes, dim_order, offset):
    info = make(schema.AllocationDetails, memory_id=1, memory_offset=offset,
                memory_offset_low=offset, memory_offset_high=0)
    return schema.EValue(make(
        schema.Tensor, scalar_type=dtype, storage_offset=0, sizes=sizes,
        dim_order=dim_order, requires_grad=False, layout=0,
        constant_buffer_idx=0, data_buffer_idx=0, allocation_info=info,
        shape_dynamism=schema.TensorShapeDynamism.STATIC,
        extra_tensor_info=None))


def method(name, calls):
    """`calls`: (operator, overload, [values of its arguments]) each; every
    call reads and writes its own values."""
    values, instructions, operators = [], [], []
    for op, overload, args in calls:
        first = len(values)
        values += args
        if (op, overload) not in operators:
            operators.append((op, overload))
        instructions.append(schema.Instruction(schema.KernelCall(
            op_index=operators.index((op, overload)),
            args=list(range(first, len(values))))))
    chain = schema.Chain(inputs=[], outputs=[], instructions=instructions,
                         stacktrace=None)
    return make(
        schema.ExecutionPlan, name=name,
        container_meta_type=schema.ContainerMetadata("", ""),
        values=values, inputs=[], outputs=[], chains=[chain],
        operators=[schema.Operator(name=op, overload=overload)
                   for op, overload in operators],
        delegates=[], non_const_buffer_sizes=[0, 4096])


def three(dtype, sizes, dim_order):
    return [tensor(dtype, sizes, dim_order, 0),
            tensor(dtype, sizes, dim_order, 1024),
            schema.EValue(schema.Int(1)),
            tensor(dtype, sizes, dim_order, 2048)]


FLOAT_4 = ([4], [0])
NHWC = ([1, 2, 3, 4], [0, 2, 3, 1])

CASES = {
    "add_float": [("aten::add", "out", three(FLOAT, *FLOAT_4))],
    "add_int_nhwc": [("aten::add", "out", three(INT, *NHWC))],
    "add_two_keys": [("aten::add", "out", three(FLOAT, *FLOAT_4)),
                     ("aten::add", "out", three(LONG, *NHWC))],
    "fft_r2c": [("aten::_fft_r2c", "out", three(FLOAT, *FLOAT_4))],
    "quantized_add": [("quantized_decomposed::add", "out",
                       three(1, *FLOAT_4))],
    "bucketize": [("aten::bucketize", "Tensor_out", three(FLOAT, *FLOAT_4))],
    "et_view": [("executorch_prim::et_view", "default",
                 three(FLOAT, *FLOAT_4))],
    "sym_max": [("executorch_prim::sym_max", "Scalar",
                 [schema.EValue(schema.Int(1)), schema.EValue(schema.Int(2)),
                  schema.EValue(schema.Int(0))])],
    "custom_sdpa": [("llama::custom_sdpa", "out", three(FLOAT, *FLOAT_4))],
    "cortex_add": [("cortex_m::quantized_add", "out", three(1, *FLOAT_4))],
    "mul_no_tensor": [("aten::mul", "Scalar_out",
                       [schema.EValue(schema.Int(1)),
                        schema.EValue(schema.Int(2))])],
}


def program(names):
    return make(
        schema.Program, version=0,
        execution_plan=[method(name, CASES[name]) for name in names],
        constant_buffer=[schema.Buffer(storage=b"")],
        backend_delegate_data=[], segments=[],
        constant_segment=schema.SubsegmentOffsets(segment_index=0, offsets=[]),
        mutable_data_segments=[], named_data=[])


def serialize(prog):
    params = inspect.signature(_program.serialize_pte_binary).parameters
    if "pte_file" in params:
        return bytes(_program.serialize_pte_binary(
            _program.PTEFile(program=prog)))
    return bytes(_program.serialize_pte_binary(prog))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, cases in (("kernels", list(CASES)),
                        ("small", ["add_float", "add_int_nhwc"])):
        with open(os.path.join(out, name + ".pte"), "wb") as f:
            f.write(serialize(program(cases)))


if __name__ == "__main__":
    main()
