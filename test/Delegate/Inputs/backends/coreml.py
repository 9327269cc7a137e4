"""Core ML payloads: the model directory's index and tree, and a MIL program in protobuf, written field by field."""
import json

from backends.common import pad16


def coreml_index(nodes, data):
    """`data` and then the in-memory file system's index of `nodes` as
    inmemoryfs serializes it: nlohmann's JSON (keys sorted, no spaces)
    written reversed, after padding to 16."""
    index = json.dumps({"nodes": nodes}, separators=(",", ":"),
                       sort_keys=True).encode()
    return pad16(bytes(data)) + index[::-1]


def coreml_tree(tree, alignment=16):
    """A CoreMLBackend payload of the directory `tree` (a name to bytes or
    to a directory) as inmemoryfs flattens it: each directory's items (in
    name order) before it, each file at the aligned end of the last one,
    the root last."""
    nodes, data = [], bytearray()

    def node(name, item):
        entry = {"name": name, "dataRegion": {"offset": 0, "size": 0},
                 "children": {}, "kind": 1}
        if isinstance(item, bytes):
            offset = len(data) + (-len(data) % alignment)
            data.extend(bytes(offset - len(data)) + item)
            entry.update(kind=0, dataRegion={"offset": offset,
                                             "size": len(item)})
        else:
            for key in sorted(item):
                entry["children"][key] = node(key, item[key])
        nodes.append(entry)
        return len(nodes) - 1

    node("root", tree)
    return coreml_index(nodes, data)


def coreml_file(name, offset, size):
    return {"name": name, "kind": 0, "children": {},
            "dataRegion": {"offset": offset, "size": size}}


def coreml_dir(name, children):
    return {"name": name, "kind": 1, "children": children,
            "dataRegion": {"offset": 0, "size": 0}}


COREML_MODEL = {
    "metadata.json": json.dumps({"identifier": "executorch_0123",
                                 "inputNames": ["x"],
                                 "outputNames": ["y"]}).encode(),
    "model.mlmodelc": {"model.mil": b"program(1.0)\n" + b"m" * 20,
                       "coremldata.bin": b"\2" * 10,
                       "weights": {"weight.bin": b"\1" * 40}}}


def pb_varint(value):
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        out.append((value & 0x7f) | (0x80 if value > 0x7f else 0))
        value >>= 7
        if not value:
            return bytes(out)


def pb(number, value):
    """One protobuf field: an int a varint, bytes or str length-delimited,
    a list its fields in turn."""
    if isinstance(value, list):
        return b"".join(pb(number, item) for item in value)
    if isinstance(value, int):
        return pb_varint(number << 3) + pb_varint(value)
    data = value.encode() if isinstance(value, str) else value
    return pb_varint(number << 3 | 2) + pb_varint(len(data)) + data


def mil_tensor_type(dtype, dims):
    """A MIL ValueType of a tensor (MIL.proto's DataType numbers: fp16 10,
    fp32 11, int32 23); a dimension of None is unknown."""
    dimensions = [pb(1, pb(1, d)) if d is not None else pb(2, b"")
                  for d in dims]
    return pb(1, pb(1, dtype) + pb(2, len(dims)) + b"".join(
        pb(3, d) for d in dimensions))


def mil_var(name, dtype, dims):
    return pb(1, name) + pb(2, mil_tensor_type(dtype, dims))


def mil_op(op, inputs=(), outputs=(), attributes=(), blocks=()):
    """A MIL Operation: inputs a parameter to bindings (a name str, or an
    immediate Value's bytes), outputs NamedValueTypes, attributes a name
    to a Value."""
    body = pb(1, op)
    for parameter, bindings in inputs:
        args = b"".join(pb(1, pb(1, b)) if isinstance(b, str) else pb(1, pb(2, b))
                        for b in bindings)
        body += pb(2, pb(1, parameter) + pb(2, args))
    body += b"".join(pb(3, output) for output in outputs)
    body += b"".join(pb(4, block) for block in blocks)
    for name, value in attributes:
        body += pb(5, pb(1, name) + pb(2, value))
    return body


def mil_ints(values):
    """An immediate Value of int32s (packed)."""
    packed = b"".join(pb_varint(v) for v in values)
    return pb(2, mil_tensor_type(23, [len(values)])) + pb(3, pb(1, pb(2, pb(1, packed))))


def mil_string(text):
    return pb(3, pb(1, pb(4, pb(1, text))))


def coreml_program():
    """A Core ML Model (spec version 9) whose ML program (field 502) has a
    function `main` of opset CoreML7: x fp32 [1, 4]; a weight const in the
    package's weight file, fp16 [4, 4]; linear; a reshape to an immediate
    shape; a cond whose nested block has one op; output z."""
    weight = mil_op("const", outputs=[mil_var("w", 10, [4, 4])], attributes=[
        ("name", mil_string("w")),
        ("val", pb(2, mil_tensor_type(10, [4, 4])) + pb(5, pb(
            1, "@model_path/weights/weight.bin") + pb(2, 64)))])
    linear = mil_op("linear", inputs=[("x", ["x"]), ("weight", ["w"])],
                    outputs=[mil_var("y", 11, [1, 4])],
                    attributes=[("name", mil_string("linear_0"))])
    reshape = mil_op("reshape", inputs=[("x", ["y"]),
                                        ("shape", [mil_ints([1, -1])])],
                     outputs=[mil_var("z", 11, [1, None])])
    inner = pb(3, mil_op("identity", inputs=[("x", ["z"])],
                         outputs=[mil_var("t", 11, [1, 4])]))
    cond = mil_op("cond", inputs=[("pred", ["z"])],
                  outputs=[mil_var("c", 11, [1, 4])], blocks=[inner])
    block = pb(2, "z") + b"".join(pb(3, op) for op in (weight, linear,
                                                       reshape, cond))
    function = (pb(1, mil_var("x", 11, [1, 4])) + pb(2, "CoreML7")
                + pb(3, pb(1, "CoreML7") + pb(2, block)))
    program = pb(1, 1) + pb(2, pb(1, "main") + pb(2, function))
    return pb(1, 9) + pb(502, program)


COREML_PACKAGE = {
    "metadata.json": json.dumps({"identifier": "executorch_4567"}).encode(),
    "model.mlpackage": {
        "Manifest.json": b"{}",
        "Data": {"com.apple.CoreML": {
            "model.mlmodel": coreml_program(),
            "weights": {"weight.bin": b"\1" * 96}}}}}
