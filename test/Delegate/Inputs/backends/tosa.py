"""TOSA graphs written by flatc (the 1.x and 0.80 schemas)."""
import json
import os
import subprocess

from backends.common import FLATC, INPUTS, OUT


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
                    os.path.join(INPUTS, schema),
                    path], check=True)
    with open(os.path.join(OUT, name + ".tosa"), "rb") as data:
        return data.read()
