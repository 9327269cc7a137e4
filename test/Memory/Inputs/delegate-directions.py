"""Programs whose delegate calls read and write what their payloads say,
for delegate-directions.test.

Usage: delegate-directions.py FLATC SCHEMA_DIR OUT_DIR"""
import json, os, struct, subprocess, sys

FLATC, SCHEMAS, OUT = sys.argv[1:4]


def flatc(name, data, schema):
    path = os.path.join(OUT, name + ".json")
    with open(path, "w") as f:
        json.dump(data, f)
    subprocess.run([FLATC, "--binary", "-o", OUT,
                    os.path.join(SCHEMAS, schema), path], check=True)
    ext = ".pte" if schema == "program.fbs" else ".bin"
    with open(os.path.join(OUT, name + ext), "rb") as f:
        return f.read()


def xvalue(id_out, flags=0, external=0, dims=(1, 4), constant=0):
    return {"xvalue_union_type": "XNNTensorValue", "xvalue_union": {
        "datatype": "fp32", "num_dims": len(dims), "dims": list(dims),
        "constant_buffer_idx": constant, "external_id": external,
        "flags": flags, "id_out": id_out}}


def xnnpack(values, inputs, outputs, constants=None):
    """An XH00 payload: its graph adds value 0 and 1 into 2."""
    graph = flatc("graph", {
        "version": "1",
        "xnodes": [{"xnode_union_type": "XNNAdd", "xnode_union": {
            "input1_id": 0, "input2_id": 1, "output_id": 2}}],
        "xvalues": values, "num_externs": len(inputs) + len(outputs),
        "input_ids": inputs, "output_ids": outputs,
        "constant_data": constants or [{"offset": 0, "size": 0}]},
        "xnnpack.fbs")
    graph += b"\0" * (-len(graph) % 16)
    header = (b"\0" * 4 + b"XH00" + struct.pack("<H", 30) +
              struct.pack("<II", 32, len(graph)) +
              struct.pack("<IQ", 32 + len(graph), 0))
    return header + b"\0" * (32 - len(header)) + graph


def tensor(offset, sizes=(1, 4)):
    return {"val_type": "Tensor", "val": {
        "scalar_type": "FLOAT", "sizes": list(sizes),
        "dim_order": list(range(len(sizes))),
        "allocation_info": {"memory_id": 1, "memory_offset_low": offset}}}


def method(name, values, args, inputs, outputs, backend="XnnpackBackend",
           entry=0):
    return {"name": name, "values": values, "inputs": inputs,
            "outputs": outputs,
            "chains": [{"instructions": [{
                "instr_args_type": "DelegateCall",
                "instr_args": {"delegate_index": 0, "args": args}}]}],
            "operators": [],
            "delegates": [{"id": backend, "compile_specs": [],
                           "processed": {"location": "INLINE",
                                         "index": entry}}],
            "non_const_buffer_sizes": [0, 32]}


# The call reads external 0 and writes external 1, as ExecuTorch numbers them.
forward = xnnpack([xvalue(0, flags=1, external=0), xvalue(1),
                   xvalue(2, flags=2, external=1)], [0], [2])
# The same graph, its output numbered first: the call's first argument is
# what the backend writes.
reversed_ids = xnnpack([xvalue(0, flags=1, external=1), xvalue(1),
                        xvalue(2, flags=2, external=0)], [0], [2])
plans = [
    # The method's input %0, and a view of it the emitter elided (%1: the
    # same bytes, another shape) that the delegate only reads.
    method("view_of_input", [tensor(0), tensor(0, (4,)), tensor(16)],
           [1, 2], [0], [2]),
    # The same, by a backend no decoder reads: the emitter's layout, and the
    # view read, decide.
    method("view_of_input_opaque", [tensor(0), tensor(0, (4,)), tensor(16)],
           [1, 2], [0], [2], backend="SomeNewBackend", entry=2),
    # Where the payload says the first argument is written, it is.
    method("payload_decides", [tensor(0), tensor(16)], [1, 0], [0], [1],
           entry=1),
    # A real overlap the payload shows: the output on the live input's bytes.
    method("output_over_input", [tensor(0), tensor(0)], [0, 1], [0], [1]),
]
flatc("directions", {
    "execution_plan": plans,
    "backend_delegate_data": [{"data": list(forward)},
                              {"data": list(reversed_ids)},
                              {"data": list(b"opaque payload")}],
    "constant_segment": {"offsets": [0]}}, "program.fbs")
