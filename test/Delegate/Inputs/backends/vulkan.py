"""Vulkan graphs written by flatc from schema/vulkan.fbs (every kind of value) with the VH00 header."""

from backends.common import pad16, region_header


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
