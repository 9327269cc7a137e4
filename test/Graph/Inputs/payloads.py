#!/usr/bin/env python3
"""Writes payloads.pte: a program whose methods each call one delegate, the
payloads built from their documented layouts, independently of emit's
decoders: XNNPACK graphs written by flatc from schema/xnnpack.fbs (every
operator the schema has, every kind of quantization, constants inline, in
the flatbuffer and by named key, and the empty key ExecuTorch's serializer
writes for a constant in the payload) with the XH00 header, QNN, Vulkan and
MPS headers, and each header or graph error a runtime refuses; QNN entries'
`qnn_compile_spec` options written by flatc in the layouts of ExecuTorch
0.7-1.0 and 1.1-1.4 (Inputs/qnn_options.fbs), and broken ones; Ethos-U
streams packed as arm_vela.py packs them, and broken ones.

  payloads.py FLATC SCHEMA_DIR OUT_DIR
"""
import json
import os
import re
import struct
import subprocess
import sys

FLATC, SCHEMAS, OUT = sys.argv[1:4]
NONE = 2**32 - 1

# Each operator of the XNNPACK schema, in tag order, with its table's kind.
OPERATORS = [
    ("XNNAdd", "2x1"), ("XNNFullyConnected", "fc"), ("XNNSoftmax", "1x1"),
    ("XNNSigmoid", "1x1"), ("XNNStaticTranspose", "transpose"),
    ("XNNClamp", "1x1"), ("XNNConv2d", "conv"), ("XNNDiv", "2x1"),
    ("XNNStaticResizeBilinear2D", "resize"), ("XNNStaticConstantPad", "pad"),
    ("XNNAvgPooling2d", "pool"), ("XNNMinimum", "2x1"),
    ("XNNDepthwiseConv2d", "conv"), ("XNNMaxPooling2d", "pool"),
    ("XNNMultiply", "2x1"), ("XNNSubtract", "2x1"), ("XNNFloor", "1x1"),
    ("XNNConvert", "1x1"), ("XNNGlobalAvgPooling2d", "1x1"),
    ("XNNStaticReshape", "reshape"), ("XNNArgMaxPooling2d", "argmax"),
    ("XNNSquareRoot", "1x1"), ("XNNCeiling", "1x1"), ("XNNHardswish", "1x1"),
    ("XNNLeakyReLU", "leaky"), ("XNNMaximum", "2x1"), ("XNNNegate", "1x1"),
    ("XNNSquare", "1x1"), ("XNNELU", "elu"), ("XNNAbs", "1x1"),
    ("XNNPReLU", "2x1"), ("XNNConcatenate2", "cat"),
    ("XNNConcatenate3", "cat"), ("XNNConcatenate4", "cat"),
    ("XNNStaticSlice", "slice"), ("XNNScaledDotProductAttention", "sdpa"),
    ("XNNBatchMatrixMultiply", "2x1"), ("XNNConcatenate5", "cat"),
    ("XNNConvTranspose2d", "conv"), ("XNNReciprocalSquareRoot", "1x1"),
    ("XNNLog", "1x1"), ("XNNGelu", "1x1"), ("XNNTanh", "1x1"),
    ("XNNExp", "1x1"), ("XNNSin", "1x1"), ("XNNCopy", "1x1"),
    ("XNNCos", "1x1"),
]


def fields(kind):
    """The table of an operator of `kind`: inputs 0.. and output 7."""
    io = {"input_id": 0, "output_id": 7, "flags": 0}
    if kind == "1x1":
        return io
    if kind == "2x1":
        return {"input1_id": 0, "input2_id": 1, "output_id": 7}
    if kind == "fc":
        return {"input1_id": 0, "filter_id": 4, "bias_id": NONE,
                "output_id": 7}
    if kind == "conv":
        return {"padding_top": 1, "padding_left": 1, "kernel_height": 3,
                "kernel_width": 3, "subsampling_height": 1,
                "subsampling_width": 1, "dilation_height": 1,
                "dilation_width": 1, "group_input_channels": 4,
                "group_output_channels": 8, "groups": 1, "input1_id": 0,
                "filter_id": 4, "bias_id": 5, "output_id": 7}
    if kind == "pool":
        return {"pooling_height": 2, "pooling_width": 2, "stride_height": 2,
                "stride_width": 2, "input_id": 0, "output_id": 7}
    if kind == "argmax":
        return {"pooling_height": 2, "pooling_width": 2, "input_id": 0,
                "output_value_id": 6, "output_index_id": 7}
    if kind == "cat":
        return {"axis": 1, "input1_id": 0, "input2_id": 1, "input3_id": 2,
                "input4_id": 3, "input5_id": 4, "output_id": 7}
    if kind == "transpose":
        return dict(io, num_dims=2, perm=[1, 0])
    if kind == "resize":
        return dict(io, new_height=8, new_width=6)
    if kind == "pad":
        return dict(io, pre_paddings=[0, 1], post_paddings=[2, 0],
                    padding_value=0.5)
    if kind == "reshape":
        return dict(io, num_dims=2, new_shape=[2, 8])
    if kind == "slice":
        return dict(io, num_dims=2, offsets=[0, 1], sizes=[1, 2])
    if kind == "leaky":
        return dict(io, negative_slope=0.25)
    if kind == "elu":
        return dict(io, alpha=1.5)
    if kind == "sdpa":
        return {"query_id": 0, "key_id": 1, "value_id": 2, "scale_id": 3,
                "mask_id": 4, "output_id": 7}
    raise ValueError(kind)


def tensor(id_out, dtype="fp32", dims=(1, 4), constant=0, flags=0,
           external=0):
    return {"datatype": dtype, "num_dims": len(dims), "dims": list(dims),
            "constant_buffer_idx": constant, "external_id": external,
            "flags": flags, "id_out": id_out}


def plain(value):
    return {"xvalue_union_type": "XNNTensorValue", "xvalue_union": value}


def quantized(value, kind, params):
    return {"xvalue_union_type": "XNNQuantizedTensorValue",
            "xvalue_union": {"tensor_value": value,
                             "quant_params_type": kind,
                             "quant_params": params}}


def every_operator_graph():
    values = [
        plain(tensor(0, flags=1, external=0)),
        plain(tensor(1, flags=1, external=1)),
        quantized(tensor(2, "qint8"), "PerTensorQuant",
                  {"scale": 0.5, "zero_point": 3}),
        quantized(tensor(3, "qcint8", (8, 4)), "PerChannelQuant",
                  {"scale": [0.5] * 8, "channel_dim": 0, "num_scales": 8}),
        quantized(tensor(4, "qbint4", (8, 4), constant=1), "PerChannelGroupQuant",
                  {"scale": [0.25] * 16, "channel_dim": 0, "group_size": 2,
                   "num_scales": 16}),
        plain(tensor(5, dims=(8,), constant=2)),
        quantized(tensor(6, "qdint8"), "PerTokenDynamicQuant",
                  {"num_nonbatch_dims": 1}),
        plain(tensor(7, flags=2, external=2)),
    ]
    nodes = [{"xnode_union_type": name, "xnode_union": fields(kind),
              "debug_handle": tag + 1}
             for tag, (name, kind) in enumerate(OPERATORS)]
    nodes[5]["output_min_max"] = {"output_min": -1.0, "output_max": 6.0}
    return {"version": "1", "xnodes": nodes, "xvalues": values,
            "num_externs": 3, "input_ids": [0, 1], "output_ids": [7],
            "constant_data": [
                {"offset": 0, "size": 0},
                {"offset": 0, "size": 16},
                {"offset": 2**64 - 1, "size": 32, "named_key": "bias"}]}


def small_graph(**change):
    graph = {"version": "1",
             "xnodes": [{"xnode_union_type": "XNNAdd",
                         "xnode_union": {"input1_id": 0, "input2_id": 1,
                                         "output_id": 2}}],
             "xvalues": [plain(tensor(0, flags=1)), plain(tensor(1, constant=1)),
                         plain(tensor(2, flags=2, external=1))],
             "num_externs": 2, "input_ids": [0], "output_ids": [2],
             "constant_data": [{"offset": 0, "size": 0},
                               {"offset": 0, "size": 16}]}
    graph.update(change)
    return graph


def flatbuffer(name, graph, schema="xnnpack.fbs", root=None):
    path = os.path.join(OUT, name + ".json")
    with open(path, "w") as out:
        json.dump(graph, out)
    subprocess.run([FLATC, "--binary", "-o", OUT]
                   + (["--root-type", root] if root else [])
                   + [os.path.join(SCHEMAS, schema), path], check=True)
    with open(os.path.join(OUT, name + ".bin"), "rb") as binary:
        return binary.read()


def pad16(data):
    return data + b"\0" * (-len(data) % 16)


def xh00(graph, constants, graph_at=32, graph_size=None, constants_at=None,
         constants_size=None):
    """XNNPACK's 30-byte header, the graph at 32, constants after it."""
    if constants_at is None:
        constants_at = graph_at + len(pad16(graph))
    header = (b"\0" * 4 + b"XH00" + struct.pack("<H", 30) +
              struct.pack("<II", graph_at,
                          len(graph) if graph_size is None else graph_size) +
              struct.pack("<IQ", constants_at,
                          len(constants) if constants_size is None
                          else constants_size))
    body = header + b"\0" * (graph_at - len(header)) + pad16(graph)
    return body + b"\0" * (constants_at - len(body)) + constants


def qnn(binary_size, binary):
    return (struct.pack("<I", 0x5678ABCD) + struct.pack("<q", 42) +
            struct.pack("<Q", binary_size) + b"\0" * 236 + binary)


def vk_value(kind, **fields):
    return {"value_type": kind, "value": fields}


def vk_tensor(dtype="FLOAT32", dims=(1, 4), constant=-1):
    return vk_value("VkTensor", datatype=dtype, dims=list(dims),
                    constant_id=constant, mem_obj_id=-1)


def vulkan_graph(**change):
    """Every kind of value; a call reading tensors, scalars and lists, one
    whose result is a list; constants in the payload and by named key."""
    graph = {
        "version": "0",
        "values": [
            vk_tensor(), vk_tensor(constant=0), vk_value("Int", int_val=1),
            vk_value("IntList", items=[1, 1]), vk_tensor(),
            vk_value("Null"), vk_value("Double", double_val=0.5),
            vk_value("Bool", bool_val=True),
            vk_value("String", string_val="same"),
            vk_value("DoubleList", items=[0.25, 2]),
            vk_value("BoolList", items=[True, False]),
            vk_value("SymInt", value=3), vk_value("ValueList", items=[4, 13]),
            vk_tensor("FLOAT16", (2, 2)), vk_tensor("INT8", (8,), constant=1),
        ],
        "chain": [
            {"node_id": 5, "name": "aten.add.Tensor", "args": [0, 1, 2, 4]},
            {"node_id": 6, "name": "aten.split_with_sizes_copy.default",
             "args": [0, 14, 5, 3, 6, 7, 8, 9, 10, 11, 12]},
        ],
        "input_ids": [0], "output_ids": [4, 13],
        "constants": [{"offset": 0, "length": 16},
                      {"offset": 2**64 - 1, "length": 8, "named_key": "w"}],
    }
    graph.update(change)
    return graph


def vh00(graph, constants, header_size=30, graph_at=32, graph_size=None,
         constants_at=None, constants_size=None):
    """Vulkan's 30-byte header, the graph at 32, constants after it."""
    if constants_at is None:
        constants_at = graph_at + len(pad16(graph))
    header = region_header(
        b"VH00", 30, (header_size, 2),
        (graph_at, 4), (len(graph) if graph_size is None else graph_size, 4),
        (constants_at, 4),
        (len(constants) if constants_size is None else constants_size, 8))
    body = header + b"\0" * (graph_at - len(header)) + pad16(graph)
    return body + b"\0" * (constants_at - len(body)) + constants


def region_header(magic, length, *fields):
    """A header of a magic at 4 and little-endian (value, width) fields."""
    data = b"\0" * 4 + magic
    for value, width in fields:
        data += value.to_bytes(width, "little")
    return data + b"\0" * (length - len(data))


def qnn_options(root, options):
    """A QnnExecuTorchOptions flatbuffer in the layout `root` of
    qnn_options.fbs, written by flatc as ExecuTorch's serializer does."""
    path = os.path.join(OUT, root + ".json")
    with open(path, "w") as out:
        json.dump(options, out)
    subprocess.run([FLATC, "--binary", "--root-type", root, "-o", OUT,
                    os.path.join(os.path.dirname(__file__), "qnn_options.fbs"),
                    path], check=True)
    with open(os.path.join(OUT, root + ".bin"), "rb") as data:
        return data.read()


def qnn_spec(root, soc=None, backend=None, **extra):
    """A `qnn_compile_spec` of the options `root`, with every field an
    export writes (the dataclass defaults) besides those given."""
    htp = {"max_sf_buf_size": 0, "performance_mode": 2, "precision": 1,
           "pd_session": 0, "use_conv_hmx": True, "use_fold_relu": True,
           "use_weight_sharing": True}
    if root == "OptionsV1_0":
        htp["skel_library_dir"] = ""
    options = {
        "soc_info": soc if soc is not None else {
            "soc_model": 57, "htp_info": {"htp_arch": 75,
                                          "vtcm_size_in_mb": 8}},
        "backend_options": backend if backend is not None else {
            "backend_type": 2, "htp_options": htp},
        "library_path": "", "log_level": 0, "profile_level": 0,
        "saver_output_dir": "saver_output",
        "op_package_options": {"op_package_infos": []}}
    if root == "OptionsV1_0":
        options["graph_name"] = ["forward"]
    options.update(extra)
    return [("qnn_compile_spec", qnn_options(root, options))]


def enn_spec(chipset):
    """An `enn_compile_options` for `chipset`, written by flatc from JSON as
    Samsung's gen_samsung_backend_compile_spec writes one."""
    path = os.path.join(OUT, "enn_options.json")
    with open(path, "w") as out:
        json.dump({"chipset": chipset}, out)
    subprocess.run([FLATC, "--binary", "-o", OUT,
                    os.path.join(os.path.dirname(__file__), "enn_options.fbs"),
                    path], check=True)
    with open(os.path.join(OUT, "enn_options.eeto"), "rb") as data:
        return [("enn_compile_options", data.read())]


def neuropilot(inputs, outputs, network, version=1, size=None):
    """A NeuropilotBackend payload as MediaTek's preprocess packs one: the
    "<BIII" header (version, input and output counts, the network's size)
    and the compiled network."""
    return struct.pack("<BIII", version, inputs, outputs,
                       len(network) if size is None else size) + network


def neutron(inputs=2, outputs=1, version=1, words=None, weights=b"w" * 20,
            kernels=b"k" * 8):
    """A NeutronBackend payload as NXP's PayloadComposer packs one: byte
    flags (counts, a format and an index per input and output, the payload
    version), then microcode, weights and kernels, each padded to 16. The
    microcode is its 64-byte header of words (magic, sizes, scratch, counts
    where `version` places them) and 8 bytes of code; `words` overrides."""
    formats = [1] * inputs + [0] * outputs  # inputs channels last
    flags = [inputs, outputs, inputs] + formats
    flags += list(range(inputs)) + list(range(outputs)) + [version]
    code = [0] * 16
    code[0], code[6], code[7], code[9] = 0x64434D6E, 72, len(weights), 4096
    if version == 1:
        code[10], code[11], code[13], code[14] = 0x80000100, 64, inputs, outputs
    else:
        code[11], code[12] = inputs, outputs
    for index, value in (words or {}).items():
        code[index] = value
    microcode = struct.pack("<16I", *code) + b"c" * 8
    return b"".join(pad16(part) for part in
                    (bytes(flags), microcode, weights, kernels))


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


def mlx(graph, data, data_at=None, data_size=None):
    """An MLX payload as mlx_graph_serialize.py lays one out: the 24-byte
    header (zeros, MLX0, the data segment's offset and size), the graph
    padded to 16, the data segment."""
    at = 24 + len(pad16(graph)) if data_at is None else data_at
    size = len(data) if data_size is None else data_size
    return (b"\0" * 4 + b"MLX0" + struct.pack("<QQ", at, size) +
            pad16(graph) + data)


def tosa_graph(name, major=1, minor=0, body=False, software=False):
    """A TOSABackend payload: a TosaGraph written by flatc from JSON in the
    layout of Inputs/tosa_graph.fbs (TOSA 1.x), as the TOSA serializer
    writes one: a convolution by a constant weight (its accumulator FP32),
    an addition, a clamp between two FP32 bounds (NaN ignored), a 1.1
    operator by number (MAX_POOL2D_ADAPTIVE, 95); with `body`, a second
    block (a control flow body) of its own tensors; with `software`, the
    software version 1.1 writes."""
    tensor = lambda name, dtype, shape, **more: dict(
        name=name, type=dtype, shape=shape, **more)
    graph = {
        "version": {"_major": major, "_minor": minor, "_patch": 0,
                    "_draft": False},
        "regions": [{"name": "main", "blocks": [{
            "name": "main",
            "operators": [
                {"op": "CONV2D", "attribute_type": "Conv2dAttribute",
                 "attribute": {"pad": [0, 0, 0, 0], "stride": [1, 1],
                               "dilation": [1, 1], "acc_type": 7},
                 "inputs": ["x", "w"], "outputs": ["c"],
                 "location": {"text": "conv.py:12"}},
                {"op": "ADD", "inputs": ["c", "x", "no_such_tensor"],
                 "outputs": ["y"]},
                {"op": "CLAMP", "attribute_type": "ClampAttribute",
                 "attribute": {"min_val": [0, 0, 0, 0],
                               "max_val": [0, 0, 192, 64], "nan_mode": 2},
                 "inputs": ["y"], "outputs": ["y"]},
                {"op": 95, "inputs": ["y"], "outputs": ["y"]}],
            "tensors": [tensor("x", "FP32", [1, 4]),
                        tensor("w", "INT8", [4, 4], data=[1] * 16),
                        tensor("c", "FP32", [1, 4]),
                        tensor("y", "FP32", [1, 4])],
            "inputs": ["x"], "outputs": ["y"]}]}]}
    if body:
        graph["regions"][0]["blocks"].append({
            "name": "body",
            "operators": [{"op": "ADD", "inputs": ["x", "x"],
                           "outputs": ["z"]}],
            "tensors": [tensor("x", "FP32", [2]), tensor("z", "FP32", [2])],
            "inputs": ["x"], "outputs": ["z"]})
    if software:
        graph["software_version"] = {"_major": 1, "_minor": 1, "_micro": 0,
                                     "_modifier": "dev"}
    return tosa_flatbuffer(name, graph, "tosa_graph.fbs")


def tosa_graph_0_80(name):
    """A TOSA 0.80 graph (Inputs/tosa_0_80_graph.fbs), as ExecuTorch up to
    0.7 wrote one: a convolution with its zero points, a fully connected
    layer (an operator 1.x no longer has), INT8 and FP32 tensors (numbered
    4 and 8 in 0.80, 3 and 7 in 1.x)."""
    tensor = lambda name, dtype, shape: dict(name=name, type=dtype,
                                             shape=shape)
    graph = {
        "version": {"_major": 0, "_minor": 80, "_patch": 0, "_draft": False},
        "regions": [{"name": "main", "blocks": [{
            "name": "main",
            "operators": [
                {"op": "CONV2D", "attribute_type": "ConvAttribute",
                 "attribute": {"pad": [1, 1, 1, 1], "stride": [2, 2],
                               "dilation": [1, 1], "input_zp": -128,
                               "weight_zp": 3},
                 "inputs": ["x", "w"], "outputs": ["c"]},
                {"op": "FULLY_CONNECTED", "inputs": ["c", "w"],
                 "outputs": ["y"]}],
            "tensors": [tensor("x", "INT8", [1, 4]),
                        tensor("w", "INT8", [4, 4]),
                        tensor("c", "FP32", [1, 4]),
                        tensor("y", "FP32", [1, 4])],
            "inputs": ["x"], "outputs": ["y"]}]}]}
    return tosa_flatbuffer(name, graph, "tosa_0_80_graph.fbs")


def tosa_flatbuffer(name, graph, schema):
    path = os.path.join(OUT, name + ".json")
    with open(path, "w") as out:
        json.dump(graph, out)
    subprocess.run([FLATC, "--binary", "-o", OUT,
                    os.path.join(os.path.dirname(__file__), schema),
                    path], check=True)
    with open(os.path.join(OUT, name + ".tosa"), "rb") as data:
        return data.read()


def vela_block(name, data, external=0):
    """An Ethos-U stream block as arm_vela.py packs one: a 16-byte name, the
    data's size, the external flag, reserved bytes, the data padded to 16."""
    header = name.ljust(16, b"\0") + struct.pack("<IB", len(data), external)
    return header + b"\0" * 11 + data + b"\0" * (-len(data) % 16)


def vela_ios(dims, *tensors):
    """An inputs or outputs block: a count, then each tensor's shape (padded
    to `dims`), element size, offset and region."""
    data = struct.pack("<i", len(tensors))
    for shape, elem_size in tensors:
        shape = [1] * (dims - len(shape)) + list(shape)
        data += struct.pack("<%di" % (dims + 3), *shape, elem_size, 0, 1)
    return data


def vela_stream(dims=6, cmd=b"COP1" + bytes(28), weights=None, extra=(),
                end=True, scratch=None):
    """A vela_bin_stream; `scratch` the scratch buffer's block as 0.4 to
    0.6 packed it (else the scratch size, as 0.7 on do)."""
    blocks = [vela_block(b"vela_bin_stream", b""),
              vela_block(b"cmd_data", cmd),
              weights or vela_block(b"weight_data", bytes(range(100))),
              scratch or vela_block(b"scratch_size", struct.pack("<I", 4096)),
              vela_block(b"inputs", vela_ios(dims, ((1, 3, 8, 8), 1))),
              vela_block(b"outputs", vela_ios(dims, ((1, 10), 1),
                                              ((1, 1), 4)))]
    blocks += list(extra)
    if end:
        blocks.append(vela_block(b"vela_end_stream", b""))
    return b"".join(blocks)


def mps_operators():
    """Each operator of schema/mps.fbs's node union, in tag order, with its
    table's fields (name, type)."""
    with open(os.path.join(SCHEMAS, "mps.fbs")) as f:
        text = re.sub(r"//[^\n]*", "", f.read())
    tables = {name: [field.strip().split(":") for field in body.split(";")
                     if field.strip()]
              for name, body in re.findall(r"table\s+(\w+)\s*\{([^}]*)\}",
                                           text)}
    union = re.search(r"union MPSNodeUnion\s*\{([^}]*)\}", text).group(1)
    members = [m.strip().split(":") for m in union.split(",") if m.strip()]
    return [(m[0].strip(), tables[(m[-1]).strip()]) for m in members]


def mps_fields(fields):
    """A node table's fields: inputs 0, 1, ... and outputs 8, 9, ... by
    position, lists of two, other ints 3, longs 4, floats 0.5, bools, a
    string, the data type 2."""
    table, inputs, outputs = {}, 0, 8
    for name, kind in fields:
        kind = kind.split("(")[0].strip()
        if name.endswith("_id") or name.endswith("_ids"):
            output = name.startswith("output")
            first = outputs if output else inputs
            table[name] = [first, first + 1] if kind == "[int]" else first
            if output:
                outputs += 2 if kind == "[int]" else 1
            else:
                inputs += 2 if kind == "[int]" else 1
        elif kind == "[int]":
            table[name] = [1, 2]
        else:
            table[name] = {"int": 3, "long": 4, "float": 0.5, "bool": True,
                           "string": "tanh", "short": 2}[kind]
    return table


def mps_value(dims=(1, 4), dtype=2, **constant):
    return dict({"datatype": dtype, "num_dims": len(dims),
                 "dims": list(dims)}, **constant)


def mps_graph(nodes, values=None, **change):
    graph = {"version": "0", "mps_nodes": nodes,
             "mps_values": values or [mps_value() for _ in range(12)],
             "input_ids": [0, 1], "output_ids": [8], "constant_ids": [],
             "graph_type": "mps_graph"}
    graph.update(change)
    return graph


def mp00(graph, segment, segment_size=None):
    """The MP00 header (0.4 on), the graph padded to 16, the segment."""
    at = 24 + len(pad16(graph))
    size = len(segment) if segment_size is None else segment_size
    return (bytes(4) + b"MP00" + struct.pack("<QQ", at, size) + pad16(graph)
            + segment)


def mps_payloads():
    every = flatbuffer("mps_every", mps_graph(
        [{"mpsnode_union_type": name, "mpsnode_union": mps_fields(fields)}
         for name, fields in mps_operators()],
        values=[mps_value()] * 2 + [
            mps_value((4, 4), constant_buffer_size=64, segment_offset=0),
            mps_value((4,), 9, constant_buffer_size=32, segment_offset=64)]
        + [mps_value()] * 8, constant_ids=[2, 3]), "mps.fbs")
    # 0.3: no header, constants in the flatbuffer; Scatter took tag 63.
    headerless = flatbuffer("mps_v0", mps_graph([
        {"mpsnode_union_type": "MPSAdd", "mpsnode_union": {
            "input1_id": 0, "input2_id": 2, "output_id": 8, "alpha": 1.0},
         "min_max": {"min_value": -1.0, "max_value": 1.0}},
        {"mpsnode_union_type": "MPSScatter", "mpsnode_union": {}},
        {"mpsnode_union_type": "MPSMean", "mpsnode_union": {}}],
        values=[mps_value(dtype=4)] * 2 + [mps_value(
            constant_buffer_size=16, constant_buffer={"storage": [1] * 16})]
        + [mps_value()] * 9), "mps.fbs", "emit_mps.MPSGraphV0")
    # 0.2: no header, the node union before Scatter; these tables do not
    # read as 0.3's.
    fields = dict(mps_operators())
    v02 = flatbuffer("mps_v02", mps_graph(
        [{"mpsnode_union_type": name, "mpsnode_union": mps_fields(fields[name])}
         for name in ("MPSAdd", "MPSConv2D", "MPSBatchNorm", "MPSMean",
                      "MPSCast")]), "mps.fbs", "emit_mps.MPSGraphV02")
    past = flatbuffer("mps_past", mps_graph([], values=[
        mps_value(constant_buffer_size=64, segment_offset=8)]), "mps.fbs")
    unnamed = flatbuffer("mps_unnamed", mps_graph([
        {"mpsnode_union_type": "MPSAdd", "mpsnode_union": {
            "input1_id": 0, "input2_id": 99, "output_id": 1}}],
        values=[mps_value()] * 2), "mps.fbs")
    return [
        ("mps_every_operator", "MPSBackend", mp00(every, bytes(96))),
        ("mps_headerless", "MPSBackend", headerless),
        ("mps_v02", "MPSBackend", v02),
        ("mps_short", "MPSBackend", bytes(4) + b"MP00" + bytes(20)),
        ("mps_constant_past", "MPSBackend", mp00(past, bytes(32))),
        ("mps_missing_value", "MPSBackend", mp00(unnamed, b"")),
        ("mps_garbage", "MPSBackend",
         mp00(b"\x10\0\0\0MP00" + b"\xff" * 24, b"")),
    ]


# MLX's operators by union tag (from 1), in the order of ExecuTorch's
# backends/mlx/serialization/schema.fbs: the graphs below name operators by
# these numbers, so a tag emit reads under another name fails the test.
MLX_OPERATORS = """Noop IdCopy Addmm ItemInt ExpandDims Tile TakeAlongAxis Take
    RMSNorm LayerNorm Rope Sdpa Add AddInt SubtractInt MultiplyInt
    FloorDivideInt SymSize Multiply Divide Subtract Conv1D Conv2D Conv3D Gelu
    ARange Silu Sigmoid Tanh Squeeze Split Rsqrt Maximum Minimum Log Softmax
    BroadcastTo Pad Where Reshape Transpose AsStrided Contiguous Gather Slice
    AsType Concatenate Full FullLike Argmax SliceUpdate IndexCopy Dequantize
    Less LessEqual Greater GreaterEqual Equal NotEqual LogicalNot LogicalAnd
    LogicalOr Tri Tril Triu Floor Ceil Square Exp Sin Cos Tan Arcsin Arccos
    Arctan Sinh Cosh Arcsinh Arccosh Arctanh Log2 Log10 Log1p Erf Expm1 Round
    Reciprocal Sqrt Abs Neg Atan2 LogAddExp FloorDivide Power LogSumExp Sum
    Mean Var Std Prod Max Min Argmin Median ModInt Remainder ConvTranspose1D
    ConvTranspose2D ConvTranspose3D Clip Cumsum Stack Sign Any All Repeat Sort
    Argsort Partition ArgPartition QuantizedMatmul ScatterAdd GatherMm
    GatherQmm Scan MetalKernel BitwiseInvert Roll BitwiseAnd BitwiseOr
    BitwiseXor If RandomBits UpdateAndAttend""".split()


def mlx_tables():
    """schema/mlx.fbs's instruction tables by union tag: each a list of
    fields (name, type)."""
    with open(os.path.join(SCHEMAS, "mlx.fbs")) as f:
        text = re.sub(r"//[^\n]*", "", f.read())
    tables = {name: [[part.strip() for part in field.split(":")]
                     for field in body.split(";") if field.strip()]
              for name, body in re.findall(r"table\s+(\w+)\s*\{([^}]*)\}",
                                           text)}
    union = re.search(r"union OpNode\s*\{([^}]*)\}", text).group(1)
    return [tables[member.split(":")[-1].strip()]
            for member in union.split(",") if member.strip()]


def mlx_fields(fields):
    """An instruction's fields: tensors 1, 2, ... (outputs from 20), value
    slot %0 (value id 30), a literal or slot of each kind, ints 3, floats
    0.5, bools true, data types 15 (bfloat16), strings, lists of two."""
    table, tensor, out = {}, 1, 20
    for name, kind in fields:
        kind = re.sub(r"\(.*\)|=.*", "", kind).strip()
        if kind in ("Tid", "[Tid]"):
            output = name in ("out", "outs", "outputs")
            first = out if output else tensor
            count = 2 if kind == "[Tid]" else 1
            ids = [{"idx": first + i} for i in range(count)]
            table[name] = ids if kind == "[Tid]" else ids[0]
            if output:
                out += count
            else:
                tensor += count
        elif kind == "Vid":
            table[name] = {"idx": 0}
        elif kind == "IntOrVid":
            table[name] = {"literal": 3}
        elif kind == "[IntOrVid]":
            table[name] = [{"literal": 2}, {"is_vid": True, "vid": {"idx": 0}}]
        elif kind == "FloatOrVid":
            table[name] = {"literal": 0.5}
        elif kind == "VidOrTid":
            table[name] = {"is_vid": True, "vid": {"idx": 0}}
        elif kind == "IntOrVidOrTid":
            table[name] = {"kind": 2, "tid": {"idx": 9}}
        elif kind.startswith("["):
            table[name] = {"[int32]": [1, 2], "[int8]": [15, 6],
                           "[string]": ["a", "b"]}[kind]
        else:
            table[name] = {"int32": 3, "uint32": 3, "int8": 15, "uint8": 3,
                           "uint64": 4, "int64": 4, "float": 0.5,
                           "bool": True, "string": "tanh"}[kind]
    return table


def mlx_meta(*dims, dtype=6):
    """A tensor's metadata: an int a static dimension, a pair (min, max) a
    dynamic one."""
    shape = [{"value": d} if isinstance(d, int) else
             {"value": -1, "min_value": d[0], "max_value": d[1]}
             for d in dims]
    return {"shape": shape, "scalar_type": dtype}


def mlx_graph(instructions, chains=None, **change):
    """An MLXGraph: two constants (named), an input, an output, a mutable
    buffer and temporaries (30 tensors), one value slot."""
    graph = {"version": "1", "num_constant_tensors": 2,
             "num_input_tensors": 1, "num_output_tensors": 1,
             "num_mutable_buffer_tensors": 1, "num_temp_tensors": 25,
             "num_values": 1,
             "instruction_chains": chains or [{"instructions": instructions}],
             "input_map": [{"idx": 2}],
             "output_map": [{"idx": 3},
                            {"idx": 0, "slot_type": "IntValueSlot"}],
             "mutable_buffer_map": [{"idx": 4}],
             "named_slots": [{"name": "mlx.w", "slot": {"idx": 0}},
                             {"name": "mlx.b", "slot": {"idx": 1}},
                             {"name": "cache", "slot": {"idx": 4}}],
             "tensor_meta": [mlx_meta(4, 2, dtype=15), mlx_meta(4),
                             mlx_meta(1, (1, 8)), mlx_meta(1, (1, -1)),
                             mlx_meta(2, 4)]}
    graph.update(change)
    return graph


def mlx_op(tag, fields):
    return {"op_type": tag, "op": fields}


def mlx_payloads():
    """MLX payloads: graphs written by flatc from schema/mlx.fbs, their
    operators named by tag; the header's errors; each error the runtime's
    loader refuses."""
    tables = mlx_tables()
    # What the graph of every operator must read as, node by node (the init
    # chain's node comes first), for FileCheck.
    with open(os.path.join(OUT, "mlx-operators.check"), "w") as f:
        f.write("OP: xnode 0 Silu [\n")
        for tag, name in enumerate(MLX_OPERATORS, 1):
            f.write("OP-NEXT: xnode %d %s [\n" % (tag, name))
    every = mlx_graph(None, chains=[
        {"instructions": [mlx_op(tag + 1, mlx_fields(fields))
                          for tag, fields in enumerate(tables)]},
        {"instructions": [mlx_op(MLX_OPERATORS.index("Silu") + 1,
                                 {"x": {"idx": 0}, "out": {"idx": 5}})]},
        {"instructions": [mlx_op(MLX_OPERATORS.index("Neg") + 1,
                                 {"x": {"idx": 5}, "out": {"idx": 6}})]}],
        init_chain_idx=1)
    tag = lambda name: MLX_OPERATORS.index(name) + 1
    # Fields left out read as their defaults; optional ones say nothing.
    defaults = mlx_graph([
        mlx_op(tag("Conv1D"), {"x": {"idx": 2}, "w": {"idx": 0},
                               "out": {"idx": 5}}),
        mlx_op(tag("Rope"), {"x": {"idx": 5}, "out": {"idx": 6},
                             "offset": {"tid": {"idx": 2}}}),
        mlx_op(tag("UpdateAndAttend"), {
            "q": {"idx": 6}, "k": {"idx": 6}, "v": {"idx": 6},
            "position": {"idx": 2}, "out": {"idx": 7}}),
        mlx_op(tag("FullLike"), {"x": {"idx": 7}, "out": {"idx": 3},
                                 "v": {"is_vid": True, "vid": {"idx": 0}},
                                 "scalar_type": 0}),
        mlx_op(tag("Cumsum"), {"x": {"idx": 3}, "out": {"idx": 3}})])
    broken = lambda **change: flatbuffer(
        "mlx_" + str(len(change)) + "_" + "_".join(change), mlx_graph(
            [mlx_op(tag("Add"), {"a": {"idx": 2}, "b": {"idx": 99},
                                 "out": {"idx": 3}}),
             mlx_op(tag("Take"), {"x": {"idx": 2}, "out": {"idx": 3},
                                  "index": {"kind": 7}})], **change),
        "mlx.fbs")
    small = flatbuffer("mlx_small", mlx_graph(
        [mlx_op(tag("Add"), {"a": {"idx": 2}, "b": {"idx": 1},
                             "out": {"idx": 3}})]), "mlx.fbs")
    return [
        ("mlx_every_operator", "MLXBackend",
         mlx(flatbuffer("mlx_every", every, "mlx.fbs"), b"")),
        ("mlx_defaults", "MLXBackend",
         mlx(flatbuffer("mlx_defaults", defaults, "mlx.fbs"), b"")),
        ("mlx_slots_past", "MLXBackend", mlx(broken(), b"")),
        ("mlx_unnamed", "MLXBackend", mlx(broken(named_slots=[]), b"")),
        ("mlx_chain_past", "MLXBackend",
         mlx(broken(main_chain_idx=3, init_chain_idx=2), b"")),
        ("mlx_too_many", "MLXBackend",
         mlx(broken(num_temp_tensors=1000000), b"")),
        ("mlx_rank", "MLXBackend", mlx(broken(tensor_meta=[
            mlx_meta(*[1] * 17), mlx_meta(1, -2)]), b"")),
        ("mlx_future_operator", "MLXBackend", mlx(mlx_future(), b"")),
        ("mlx_garbage", "MLXBackend", mlx(b"g" * 40, b"d" * 16)),
        ("mlx_short", "MLXBackend", b"\0\0\0\0MLX0" + bytes(8)),
        ("mlx_data_at_header", "MLXBackend", mlx(small, b"d" * 16, data_at=24)),
        ("mlx_data_past", "MLXBackend", mlx(small, b"d" * 16, data_at=4096)),
        ("mlx_data_size_past", "MLXBackend",
         mlx(small, b"d" * 16, data_size=1 << 20)),
    ]


def mlx_future():
    """A graph of an operator past the last tag emit knows, written with a
    schema of this test's own whose union has one more member."""
    members = ", ".join("Op%d: Empty" % tag
                        for tag in range(1, len(MLX_OPERATORS) + 2))
    path = os.path.join(OUT, "mlx_future.fbs")
    with open(path, "w") as f:
        f.write("table Empty {}\nunion OpNode { %s }\n"
                "table Instruction { op: OpNode (required); }\n"
                "table InstructionChain { instructions: [Instruction]; }\n"
                "table MLXGraph { version: string; a: uint; b: uint; c: uint;"
                " d: uint; e: uint; f: uint;"
                " instruction_chains: [InstructionChain]; }\n"
                "root_type MLXGraph;\n" % members)
    last = "Op%d" % (len(MLX_OPERATORS) + 1)
    return flatbuffer("mlx_future", {"instruction_chains": [{
        "instructions": [{"op_type": last, "op": {}}]}]},
        os.path.abspath(path))


def id_payloads():
    """Backends known by their id, not a magic: Samsung (its compile spec),
    MediaTek, NXP Neutron, Core ML's file tree; and TOSA's payloads (MLX's:
    mlx_payloads)."""
    return [
        ("samsung", "EnnBackend", b"an ENN model", enn_spec(9955)),
        ("samsung_new_chipset", "EnnBackend", b"an ENN model",
         enn_spec(9999)),
        ("samsung_no_identifier", "EnnBackend", b"an ENN model",
         [("enn_compile_options", enn_spec(9965)[0][1][:4] + b"XXXX" +
           enn_spec(9965)[0][1][8:])]),
        ("samsung_garbage", "EnnBackend", b"an ENN model",
         [("enn_compile_options", b"\x40\0\0\0EETO")]),
        ("mediatek", "NeuropilotBackend", neuropilot(2, 1, b"N" * 40) +
         b"\0" * 3),
        ("mediatek_network_past", "NeuropilotBackend",
         neuropilot(2, 1, b"N" * 40, size=4096)),
        ("mediatek_short", "NeuropilotBackend", b"\1\2\0\0\0"),
        ("mediatek_version", "NeuropilotBackend",
         neuropilot(1, 1, b"N" * 8, version=2)),
        ("neutron", "NeutronBackend", neutron()),
        ("neutron_version_0", "NeutronBackend", neutron(1, 1, version=0)),
        ("neutron_short", "NeutronBackend", b"\1"),
        ("neutron_flags_past", "NeutronBackend", b"\x40\x40\1" + bytes(8)),
        ("neutron_no_microcode", "NeutronBackend",
         neutron(words={0: 0x12345678})),
        ("neutron_unknown_version", "NeutronBackend", neutron(version=7)),
        ("neutron_io_mismatch", "NeutronBackend", neutron(words={13: 3})),
        ("neutron_weights_past", "NeutronBackend",
         neutron(words={7: 1 << 20})),
        ("tosa", "TOSABackend", tosa_graph("tosa")),
        ("tosa_0_80", "TOSABackend", tosa_graph_0_80("tosa_0_80")),
        ("tosa_1_1", "TOSABackend", tosa_graph("tosa_1_1", 1, 1,
                                               software=True)),
        ("tosa_0_60", "TOSABackend", tosa_graph("tosa_0_60", 0, 60)),
        ("tosa_body", "TOSABackend", tosa_graph("tosa_body", body=True)),
        ("tosa_garbage", "TOSABackend", b"\x10\0\0\0TOSA" + b"\xff" * 24),
        ("coreml", "CoreMLBackend", coreml_tree(COREML_MODEL)),
        ("coreml_package", "CoreMLBackend", coreml_tree(COREML_PACKAGE)),
        ("coreml_package_malformed", "CoreMLBackend", coreml_tree({
            "model.mlpackage": {"Data": {"com.apple.CoreML": {
                "model.mlmodel": coreml_program()[:-9]}}}})),
        ("coreml_package_not_program", "CoreMLBackend", coreml_tree({
            "model.mlpackage": {"Data": {"com.apple.CoreML": {
                "model.mlmodel": pb(1, 4) + pb(500, b"")}}}})),
        ("coreml_no_index", "CoreMLBackend", b"model bytes, no index"),
        ("coreml_unclosed", "CoreMLBackend", b'xx"nodes":[]{' + bytes(3)),
        ("coreml_not_json", "CoreMLBackend", b"}not json{"),
        ("coreml_file_past", "CoreMLBackend", coreml_index(
            [coreml_file("model.mil", 16, 4096),
             coreml_dir("root", {"model.mil": 0})], b"m" * 32)),
        ("coreml_child_after", "CoreMLBackend", coreml_index(
            [coreml_file("a", 0, 4),
             coreml_dir("root", {"a": 0, "itself": 1, "later": 5})],
            b"aaaa")),
        ("coreml_file_root", "CoreMLBackend", coreml_index(
            [coreml_dir("root", {}), coreml_file("a", 0, 4)], b"aaaa")),
        ("coreml_shared_child", "CoreMLBackend", coreml_index(
            [coreml_file("w.bin", 0, 4), coreml_dir("a", {"w.bin": 0}),
             coreml_dir("root", {"a": 1, "b": 1})], b"wwww")),
    ]


def payloads():
    every = flatbuffer("every", every_operator_graph())
    small = flatbuffer("small", small_graph())
    missing = flatbuffer("missing", small_graph(xnodes=[
        {"xnode_union_type": "XNNAdd",
         "xnode_union": {"input1_id": 0, "input2_id": 99, "output_id": 2}}]))
    far = flatbuffer("far", small_graph(constant_data=[
        {"offset": 0, "size": 0}, {"offset": 8, "size": 16}]))
    empty_key = flatbuffer("empty_key", small_graph(constant_data=[
        {"offset": 0, "size": 0},
        {"offset": 0, "size": 16, "named_key": ""}]))
    in_flatbuffer = flatbuffer("inline", small_graph(
        constant_data=[], constant_buffer=[{}, {"storage": [7] * 24}]))
    garbage = b"\x10\0\0\0XN01" + b"\xff" * 24
    renamed = b"\x10\0\0\0XZ99" + small[8:]
    vk = flatbuffer("vulkan", vulkan_graph(), "vulkan.fbs")
    vk_far = flatbuffer("vulkan_far", vulkan_graph(constants=[
        {"offset": 8, "length": 16}]), "vulkan.fbs")
    # Union types that name a table and hold none (the verifier lets them).
    vk_empty = flatbuffer("vulkan_empty_union", vulkan_graph(
        values=[vk_tensor(), {"value_type": "Int"}, {"value_type": "VkTensor"},
                vk_tensor()],
        chain=[{"node_id": 0, "name": "aten.add.Tensor",
                "args": [0, 2, 1, 3]}],
        input_ids=[0], output_ids=[3], constants=[]), "vulkan.fbs")
    no_params = flatbuffer("no_params", small_graph(xvalues=[
        plain(tensor(0, flags=1)),
        {"xvalue_union_type": "XNNQuantizedTensorValue",
         "xvalue_union": {"tensor_value": tensor(1, dtype="qint8"),
                          "quant_params_type": "PerTensorQuant"}},
        plain(tensor(2, flags=2, external=1))]))
    vk_missing = flatbuffer("vulkan_missing", vulkan_graph(
        values=[vk_tensor(constant=3), vk_tensor()],
        chain=[{"node_id": 0, "name": "aten.abs.default", "args": [0, 99, 1]}],
        output_ids=[1]), "vulkan.fbs")
    return [
        ("xnnpack_every_operator", "XnnpackBackend",
         xh00(every, bytes(range(16)))),
        ("xnnpack_no_header", "XnnpackBackend", in_flatbuffer),
        ("xnnpack_short_header", "XnnpackBackend", b"\0\0\0\0XH00" + b"\0" * 10),
        ("xnnpack_graph_past_payload", "XnnpackBackend",
         xh00(small, b"\1" * 16, graph_size=4096)),
        ("xnnpack_constants_past_payload", "XnnpackBackend",
         xh00(small, b"\1" * 16, constants_size=1 << 40)),
        ("xnnpack_overlap", "XnnpackBackend",
         xh00(small, b"\1" * 16, constants_at=40, constants_size=16)),
        ("xnnpack_small_graph", "XnnpackBackend",
         xh00(small, b"\1" * 16, graph_size=4)),
        ("xnnpack_identifier", "XnnpackBackend", xh00(renamed, b"\1" * 16)),
        ("xnnpack_garbage", "XnnpackBackend", xh00(garbage, b"")),
        ("xnnpack_missing_value", "XnnpackBackend", xh00(missing, b"\1" * 16)),
        ("xnnpack_constant_far", "XnnpackBackend", xh00(far, b"\1" * 16)),
        ("xnnpack_empty_key", "XnnpackBackend", xh00(empty_key, b"\1" * 16)),
        ("qnn", "QnnBackend", qnn(100, b"\2" * 100) + b"\0" * 12,
         qnn_spec("OptionsV1_4", log_level=2)),
        ("qnn_past", "QnnBackend", qnn(4096, b"\2" * 100)),
        ("qnn_short", "QnnBackend", struct.pack("<I", 0x5678ABCD) + b"\0" * 40),
        # Constant size 0: the rest of the payload.
        ("vulkan", "VulkanBackend",
         vh00(vk, bytes(range(16)), constants_size=0)),
        ("vulkan_no_header", "VulkanBackend", vk),
        ("vulkan_short_header", "VulkanBackend", b"\0\0\0\0VH00" + b"\0" * 12),
        ("vulkan_header_size", "VulkanBackend",
         vh00(vk, b"\1" * 16, header_size=20)),
        ("vulkan_graph_in_header", "VulkanBackend",
         vh00(vk, b"\1" * 16, graph_at=24)),
        ("vulkan_constants_in_graph", "VulkanBackend",
         vh00(vk, b"\1" * 16, constants_at=40, constants_size=16)),
        ("vulkan_constant_far", "VulkanBackend", vh00(vk_far, b"\1" * 16)),
        ("vulkan_missing_value", "VulkanBackend", vh00(vk_missing, b"")),
        ("vulkan_empty_union", "VulkanBackend", vh00(vk_empty, b"")),
        ("xnnpack_no_quant_params", "XnnpackBackend",
         xh00(no_params, b"\1" * 16)),
        ("vulkan_garbage", "VulkanBackend",
         vh00(b"\x10\0\0\0VK00" + b"\xff" * 24, b"")),
        ("mps", "MPSBackend", region_header(b"MP00", 24, (24, 8), (8, 8)) +
         b"\3" * 8),
        ("opaque", "SomeNewBackend", b"not a known payload"),
        # The same settings in the layout of 0.7 to 1.0, read the same.
        ("qnn_spec_1_0", "QnnBackend", qnn(100, b"\2" * 100),
         qnn_spec("OptionsV1_0")),
        ("qnn_spec_gpu", "QnnBackend", qnn(100, b"\2" * 100),
         qnn_spec("OptionsV1_4", soc={"soc_model": 1234, "htp_info": {}},
                  backend={"backend_type": 1,
                           "gpu_options": {"precision": 1}})),
        ("qnn_spec_no_soc", "QnnBackend", qnn(100, b"\2" * 100),
         [("qnn_compile_spec", qnn_options("OptionsV1_4", {
             "backend_options": {"backend_type": 2}}))]),
        ("qnn_spec_garbage", "QnnBackend", qnn(100, b"\2" * 100),
         [("other_key", b"\1\2"), ("qnn_compile_spec", b"\x40" + b"\0" * 7)]),
        ("ethos_u", "EthosUBackend", vela_stream()),
        # Up to 0.6: 4-D shapes; the weights' block a key into named data.
        ("ethos_u_4d_external", "EthosUBackend", vela_stream(
            dims=4, weights=vela_block(b"weight_data", b"ab" * 32, 1))),
        ("ethos_u_bad_command", "EthosUBackend",
         vela_stream(cmd=b"XXXX" + bytes(12))),
        ("ethos_u_no_end", "EthosUBackend", vela_stream(end=False)),
        ("ethos_u_unknown_block", "EthosUBackend",
         vela_stream(extra=[vela_block(b"mystery", b"?")])),
        ("ethos_u_block_past", "EthosUBackend",
         vela_stream(end=False) + b"vela_end_stream\0" +
         struct.pack("<I", 4096) + bytes(12)),
        ("ethos_u_short_key", "EthosUBackend", vela_stream(
            weights=vela_block(b"weight_data", b"k" * 10, 1))),
        ("ethos_u_trailing", "EthosUBackend", vela_stream() + bytes(32)),
    ] + mps_payloads() + mlx_payloads() + id_payloads() + [
        # Last, so that the cases above keep their inline indices.
        ("ethos_u_scratch_buffer", "EthosUBackend", vela_stream(
            dims=4, scratch=vela_block(b"scratch_data", bytes(48))))]


def program(cases):
    plans, data = [], []
    for index, (name, backend, payload, *specs) in enumerate(cases):
        data.append({"data": list(payload)})
        plans.append({
            "name": name,
            "values": [{"val_type": "Tensor", "val": {
                "scalar_type": "FLOAT", "sizes": [1, 4], "dim_order": [0, 1],
                "allocation_info": {"memory_id": 1, "memory_offset_low": 0}}}],
            "inputs": [0], "outputs": [0],
            "chains": [{"instructions": [{
                "instr_args_type": "DelegateCall",
                "instr_args": {"delegate_index": 0, "args": [0]}}]}],
            "operators": [],
            "delegates": [{"id": backend, "compile_specs": [
                {"key": key, "value": list(value)}
                for key, value in (specs[0] if specs else [])],
                           "processed": {"location": "INLINE",
                                         "index": index}}],
            "non_const_buffer_sizes": [0, 16]})
    return {"version": 0, "execution_plan": plans,
            "backend_delegate_data": data, "segments": []}


def mixed(cases):
    """A method of kernel calls between delegate calls: an XNNPACK payload
    called twice through two entries that differ only in a compile spec
    (its graph's operators run twice, its graph is one), one no decoder
    knows."""
    def data(name):
        return [case[0] for case in cases].index(name)
    kernel = lambda op: {"instr_args_type": "KernelCall",
                         "instr_args": {"op_index": op, "args": [0, 0, 0]}}
    call = lambda entry: {"instr_args_type": "DelegateCall",
                          "instr_args": {"delegate_index": entry,
                                         "args": [0]}}
    entry = lambda backend, name, specs=(): {
        "id": backend, "compile_specs": [
            {"key": key, "value": list(value)} for key, value in specs],
        "processed": {"location": "INLINE", "index": data(name)}}
    return {
        "name": "mixed",
        "values": [{"val_type": "Tensor", "val": {
            "scalar_type": "FLOAT", "sizes": [1, 4], "dim_order": [0, 1],
            "allocation_info": {"memory_id": 1, "memory_offset_low": 0}}}],
        "inputs": [0], "outputs": [0],
        "chains": [{"instructions": [
            kernel(0), call(0), kernel(1), call(2), kernel(0), call(1),
            kernel(2)]}],
        "operators": [{"name": "aten::add", "overload": "out"},
                      {"name": "aten::mul", "overload": "out"},
                      {"name": "my_ops::gather", "overload": ""}],
        "delegates": [entry("XnnpackBackend", "xnnpack_no_header"),
                      entry("SomeNewBackend", "opaque"),
                      entry("XnnpackBackend", "xnnpack_no_header",
                            [("workspace_sharing", b"\x01")])],
        "non_const_buffer_sizes": [0, 16]}


def main():
    path = os.path.join(OUT, "payloads.json")
    cases = payloads()
    plan = program(cases)
    plan["execution_plan"].append(mixed(cases))
    with open(path, "w") as out:
        json.dump(plan, out)
    subprocess.run([FLATC, "--binary", "-o", OUT,
                    os.path.join(SCHEMAS, "program.fbs"), path], check=True)


main()
