"""MLX graphs written by flatc from the MLX schema, with their data."""
import os
import re
import struct

from backends.common import OUT, SCHEMAS, flatbuffer, pad16


def mlx(graph, data, data_at=None, data_size=None):
    """An MLX payload as mlx_graph_serialize.py lays one out: the 24-byte
    header (zeros, MLX0, the data segment's offset and size), the graph
    padded to 16, the data segment."""
    at = 24 + len(pad16(graph)) if data_at is None else data_at
    size = len(data) if data_size is None else data_size
    return (b"\0" * 4 + b"MLX0" + struct.pack("<QQ", at, size) +
            pad16(graph) + data)


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
