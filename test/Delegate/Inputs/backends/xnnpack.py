"""XNNPACK graphs written by flatc from schema/xnnpack.fbs (every operator the schema has, every kind of quantization, constants inline, in the flatbuffer and by named key) with the XH00 header."""
import struct

from backends.common import NONE, pad16


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
