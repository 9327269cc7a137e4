#!/usr/bin/env python3
"""Writes pairs of programs that differ by edits made on purpose, and what
each edit is, for emit-diff --graph: graph-pairs.py FLATC SCHEMA_DIR OUT_DIR.

A model is a list of layers, each an operator (add, mul or linear) run on
the CPU as a kernel call or by XNNPACK (consecutive XNNPACK layers are one
delegate call, its payload an XH00 graph written by flatc from
schema/xnnpack.fbs). Layer k reads the layer before's output (the input x
for the first) and x, and writes its own output, f32 [1, 16]; a linear
layer's weight is a constant (the program's constant_buffer, or the
payload's constant data). The program is written by flatc from
schema/program.fbs: nothing of emit writes it.

OUT_DIR/base.pte is the model; each OUT_DIR/<edit>.pte the same with one
edit, and <edit>.expected.json what the diff must find, derived from the
edit alone: the nodes added and removed (their ids in the new and old
program), the pairs changed and how, and the operators moved into or out
of XNNPACK. Node ids are emit-graph's: `iK` for instruction K, `iK/nJ` for
operator J of the payload of the call at instruction K, input0, output0.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Delegate", "Inputs"))
from backends.common import NONE, flatbuffer  # noqa: E402
from backends.xnnpack import plain, tensor as xtensor, xh00  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from graph_edits import SHAPE, calls, edits, expectation_writer, weight  # noqa: E402

FLATC, SCHEMAS, OUT = sys.argv[1:4]
KERNELS = {"add": ("aten::add", "out"), "mul": ("aten::mul", "out"),
           "linear": ("aten::linear", "out")}
XNODES = {"add": "XNNAdd", "mul": "XNNMultiply", "linear": "XNNFullyConnected"}


class Writer:
    """One program of `layers` in method `name`, as flatc's JSON."""

    def __init__(self, layers, name):
        self.layers, self.name = layers, name
        self.values, self.instructions, self.delegates = [], [], []
        self.operators, self.buffers, self.data = [], [{"storage": []}], []
        self.offset = 0
        self.ids = []  # each layer's node id

    def planned(self, dtype="FLOAT", shape=SHAPE):
        size = 16 * 4
        value = {"val_type": "Tensor", "val": {
            "scalar_type": dtype, "sizes": shape,
            "dim_order": list(range(len(shape))),
            "allocation_info": {"memory_id": 1,
                                "memory_offset_low": self.offset}}}
        self.offset += size
        self.values.append(value)
        return len(self.values) - 1

    def constant(self, data, shape):
        self.buffers.append({"storage": list(data)})
        self.values.append({"val_type": "Tensor", "val": {
            "scalar_type": "FLOAT", "sizes": shape,
            "dim_order": list(range(len(shape))),
            "data_buffer_idx": len(self.buffers) - 1}})
        return len(self.values) - 1

    def operator(self, op):
        name, overload = KERNELS[op]
        entry = {"name": name, "overload": overload}
        if entry not in self.operators:
            self.operators.append(entry)
        return self.operators.index(entry)

    def kernel(self, spec, previous, x):
        out = self.planned(spec["dtype"], spec["shape"])
        if spec["op"] == "linear":
            args = [previous, self.constant(weight(spec["seed"]), [16, 16]), out]
        elif spec["op"] == "add":
            self.values.append({"val_type": "Int", "val": {"int_val": 1}})
            args = [previous, x, len(self.values) - 1, out]
        else:
            args = [previous, x, out]
        self.ids.append("i%d" % len(self.instructions))
        self.instructions.append({"instr_args_type": "KernelCall", "instr_args": {
            "op_index": self.operator(spec["op"]), "args": args}})
        return out

    def delegate(self, group, previous, x):
        """One XNNPACK call running `group`: externals previous (0), x (1)
        and the last layer's output (2)."""
        out = self.planned(group[-1]["dtype"], group[-1]["shape"])
        dtypes = {"FLOAT": "fp32", "HALF": "fp16"}
        first = self.values[previous]["val"]
        values = [plain(xtensor(0, dtypes[first["scalar_type"]],
                                tuple(first["sizes"]), flags=1, external=0)),
                  plain(xtensor(1, dims=tuple(SHAPE), flags=1, external=1)),
                  plain(xtensor(2, dtypes[group[-1]["dtype"]],
                                tuple(group[-1]["shape"]), flags=2,
                                external=2))]
        constants, offsets, nodes = b"", [{"offset": 0, "size": 0}], []
        current = 0
        call = len(self.instructions)
        for k, spec in enumerate(group):
            if k == len(group) - 1:
                output = 2
            else:
                output = len(values)
                values.append(plain(xtensor(output, dtypes[spec["dtype"]],
                                            tuple(spec["shape"]))))
            if spec["op"] == "linear":
                data = weight(spec["seed"])
                offsets.append({"offset": len(constants), "size": len(data)})
                constants += data
                filt = len(values)
                values.append(plain(xtensor(filt, dims=(16, 16),
                                            constant=len(offsets) - 1)))
                fields = {"input1_id": current, "filter_id": filt,
                          "bias_id": NONE, "output_id": output}
            else:
                fields = {"input1_id": current, "input2_id": 1,
                          "output_id": output}
            nodes.append({"xnode_union_type": XNODES[spec["op"]],
                          "xnode_union": fields})
            self.ids.append("i%d/n%d" % (call, k))
            current = output
        graph = {"version": "1", "xnodes": nodes, "xvalues": values,
                 "num_externs": 3, "input_ids": [0, 1], "output_ids": [2],
                 "constant_data": offsets}
        payload = xh00(flatbuffer("xnn%d-%d" % (id(self), call), graph),
                       constants)
        self.data.append({"data": list(payload)})
        self.delegates.append({"id": "XnnpackBackend", "compile_specs": [],
                               "processed": {"location": "INLINE",
                                             "index": len(self.data) - 1}})
        self.instructions.append({"instr_args_type": "DelegateCall",
                                  "instr_args": {
                                      "delegate_index": len(self.delegates) - 1,
                                      "args": [previous, x, out]}})
        return out

    def plan(self):
        x = self.planned()
        previous = x
        for where, run in calls(self.layers):
            call = self.delegate if where == "xnn" else self.kernel
            previous = call(run, previous, x)
        return {"name": self.name, "values": self.values, "inputs": [x],
                "outputs": [previous],
                "chains": [{"inputs": [x], "outputs": [previous],
                            "instructions": self.instructions}],
                "operators": self.operators, "delegates": self.delegates,
                "non_const_buffer_sizes": [0, self.offset]}


def write(name, layers, method="forward"):
    writer = Writer(layers, method)
    plan = writer.plan()
    program = {"version": 0, "execution_plan": [plan],
               "constant_buffer": writer.buffers,
               "backend_delegate_data": writer.data, "segments": []}
    path = os.path.join(OUT, name + ".json")
    with open(path, "w") as out:
        json.dump(program, out)
    subprocess.run([FLATC, "--binary", "-o", OUT,
                    os.path.join(SCHEMAS, "program.fbs"), path], check=True)
    # program.fbs names the extension: flatc writes NAME.pte.
    return writer.ids


edits(write, expectation_writer(OUT))
