#!/usr/bin/env python3
# ===- graph_diff_pairs.py - The graph diff's edits, by ExecuTorch --------===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Writes the model and the edits of test/Diff/Inputs/graph_edits.py (the
# lit suite's, there written by flatc) with ExecuTorch's own Python
# serializer: the program by serialize_pte_binary (constants in the
# constant segment, payloads in segments, as an export writes them), each
# XNNPACK payload by ExecuTorch's XNNPACK serializer
# (serialize_xnnpack_binary of an XNNGraph of its dataclasses), its weights
# in the program's named data under their SHA-256, as ExecuTorch's XNNPACK
# backend stores them (its serializer writes an inline constant with the
# key "", which the runtime looks up in named data). Run with a release's
# et-python on PYTHONPATH, it writes what that release wrote.
#
#   PYTHONPATH=$HOME/.cache/et-python python3 graph_diff_pairs.py OUT_DIR
#
# Writes OUT_DIR/<edit>.pte and <edit>.expected.json, as graph-pairs.py.
# ===----------------------------------------------------------------------===#

import hashlib
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir,
                    os.pardir, os.pardir)
sys.path.insert(0, os.path.join(ROOT, "test", "Diff", "Inputs"))
from graph_edits import SHAPE, calls, edits, expectation_writer, weight  # noqa: E402

from executorch.backends.xnnpack.serialization.xnnpack_graph_schema import (  # noqa: E402
    ConstantDataOffset, XNNAdd, XNNDatatype, XNNFullyConnected, XNNGraph,
    XNNMultiply, XNNTensorValue, XNode, XValue)
from executorch.backends.xnnpack.serialization.xnnpack_graph_serialize import (  # noqa: E402
    serialize_xnnpack_binary)
from executorch.exir._serialize._named_data_store import (  # noqa: E402
    NamedDataStore)
from executorch.exir._serialize._program import (  # noqa: E402
    serialize_pte_binary)
from executorch.exir.scalar_type import ScalarType  # noqa: E402
from executorch.exir.schema import (  # noqa: E402
    AllocationDetails, BackendDelegate, BackendDelegateDataReference,
    BackendDelegateInlineData, Buffer, Chain, ContainerMetadata, DataLocation,
    DelegateCall, EValue, ExecutionPlan, Instruction, Int, KernelCall,
    Operator, Program, SubsegmentOffsets, Tensor, TensorShapeDynamism)

OUT = sys.argv[1]
KERNELS = {"add": ("aten::add", "out"), "mul": ("aten::mul", "out"),
           "linear": ("aten::linear", "out")}
DTYPES = {"FLOAT": (ScalarType.FLOAT, XNNDatatype.xnn_datatype_fp32),
          "HALF": (ScalarType.HALF, XNNDatatype.xnn_datatype_fp16)}
NO_VALUE = 2**32 - 1  # XNNPACK's "no bias"


class Writer:
    """One program of `layers` in method `name`."""

    def __init__(self, layers, name):
        self.layers, self.name = layers, name
        self.values, self.instructions, self.delegates = [], [], []
        self.operators, self.buffers, self.data = [], [Buffer(storage=b"")], []
        self.offset = 0
        self.store = NamedDataStore()
        self.ids = []
        self.types = []  # each value's (dtype, shape)

    def tensor(self, dtype, shape, buffer=0, planned=True):
        allocation = None
        if planned:
            allocation = AllocationDetails(memory_id=1,
                                           memory_offset_low=self.offset,
                                           memory_offset_high=0)
            self.offset += 64
        self.values.append(EValue(Tensor(
            scalar_type=DTYPES[dtype][0], storage_offset=0, sizes=list(shape),
            dim_order=list(range(len(shape))), requires_grad=False, layout=0,
            data_buffer_idx=buffer, allocation_info=allocation,
            shape_dynamism=TensorShapeDynamism.STATIC)))
        self.types.append((dtype, list(shape)))
        return len(self.values) - 1

    def operator(self, op):
        name, overload = KERNELS[op]
        for index, entry in enumerate(self.operators):
            if (entry.name, entry.overload) == (name, overload):
                return index
        self.operators.append(Operator(name=name, overload=overload))
        return len(self.operators) - 1

    def kernel(self, spec, previous, x):
        out = self.tensor(spec["dtype"], spec["shape"])
        if spec["op"] == "linear":
            self.buffers.append(Buffer(storage=weight(spec["seed"])))
            w = self.tensor("FLOAT", [16, 16], len(self.buffers) - 1, False)
            args = [previous, w, out]
        elif spec["op"] == "add":
            self.values.append(EValue(Int(1)))
            self.types.append(None)
            args = [previous, x, len(self.values) - 1, out]
        else:
            args = [previous, x, out]
        self.ids.append("i%d" % len(self.instructions))
        self.instructions.append(Instruction(KernelCall(
            op_index=self.operator(spec["op"]), args=args + [out])))
        return out

    def xvalue(self, id_out, dtype, shape, flags=0, external=0, constant=0):
        return XValue(xvalue_union=XNNTensorValue(
            datatype=DTYPES[dtype][1], num_dims=len(shape), dims=list(shape),
            constant_buffer_idx=constant, external_id=external, flags=flags,
            id_out=id_out))

    def delegate(self, group, previous, x):
        """One XNNPACK call running `group`: externals previous (0), x (1)
        and the last layer's output (2)."""
        out = self.tensor(group[-1]["dtype"], group[-1]["shape"])
        first_dtype, first_shape = self.types[previous]
        values = [self.xvalue(0, first_dtype, first_shape, 1, 0),
                  self.xvalue(1, "FLOAT", SHAPE, 1, 1),
                  self.xvalue(2, group[-1]["dtype"], group[-1]["shape"], 2, 2)]
        constants, offsets, nodes = bytearray(), [ConstantDataOffset(0, 0)], []
        current, call = 0, len(self.instructions)
        for k, spec in enumerate(group):
            output = 2 if k == len(group) - 1 else len(values)
            if output != 2:
                values.append(self.xvalue(output, spec["dtype"], spec["shape"]))
            if spec["op"] == "linear":
                data = weight(spec["seed"])
                key = hashlib.sha256(data).hexdigest()
                self.store.add_named_data(key, data, alignment=64)
                offsets.append(ConstantDataOffset(2**64 - 1, len(data), key))
                filt = len(values)
                values.append(self.xvalue(filt, "FLOAT", [16, 16],
                                          constant=len(offsets) - 1))
                node = XNNFullyConnected(input1_id=current, filter_id=filt,
                                         bias_id=NO_VALUE, output_id=output,
                                         flags=0)
            else:
                kind = XNNAdd if spec["op"] == "add" else XNNMultiply
                node = kind(input1_id=current, input2_id=1, output_id=output,
                            flags=0)
            nodes.append(XNode(xnode_union=node, debug_handle=k + 1))
            self.ids.append("i%d/n%d" % (call, k))
            current = output
        graph = XNNGraph(version="1", xnodes=nodes, xvalues=values,
                         num_externs=3, input_ids=[0, 1], output_ids=[2],
                         constant_data=offsets)
        self.data.append(BackendDelegateInlineData(
            data=serialize_xnnpack_binary(graph, constants)))
        self.delegates.append(BackendDelegate(
            id="XnnpackBackend", compile_specs=[],
            processed=BackendDelegateDataReference(
                location=DataLocation.INLINE, index=len(self.data) - 1)))
        self.instructions.append(Instruction(DelegateCall(
            delegate_index=len(self.delegates) - 1, args=[previous, x, out])))
        return out

    def program(self):
        x = self.tensor("FLOAT", SHAPE)
        previous = x
        for where, run in calls(self.layers):
            call = self.delegate if where == "xnn" else self.kernel
            previous = call(run, previous, x)
        plan = ExecutionPlan(
            name=self.name, container_meta_type=ContainerMetadata("", ""),
            values=self.values, inputs=[x], outputs=[previous],
            chains=[Chain(inputs=[x], outputs=[previous],
                          instructions=self.instructions, stacktrace=None)],
            operators=self.operators, delegates=self.delegates,
            non_const_buffer_sizes=[0, self.offset])
        return Program(version=0, execution_plan=[plan],
                       constant_buffer=self.buffers,
                       backend_delegate_data=self.data, segments=[],
                       constant_segment=SubsegmentOffsets(segment_index=0,
                                                          offsets=[]))


def write(name, layers, method="forward"):
    writer = Writer(layers, method)
    program = writer.program()
    named = writer.store.get_named_data_store_output()
    named = named if named.pte_data else None
    try:  # Since 1.1: the program and its data in a PTEFile.
        from executorch.exir._serialize._program import PTEFile
        data = serialize_pte_binary(PTEFile(program=program, named_data=named),
                                    extract_delegate_segments=True,
                                    segment_alignment=128)
    except ImportError:  # Up to 1.0: the program, its data beside it.
        data = serialize_pte_binary(program, named_data=named,
                                    extract_delegate_segments=True,
                                    segment_alignment=128)
    with open(os.path.join(OUT, name + ".pte"), "wb") as out:
        out.write(bytes(data))
    return writer.ids


os.makedirs(OUT, exist_ok=True)
edits(write, expectation_writer(OUT))
