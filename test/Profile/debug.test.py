"""The debug events of debug.etdp in emit-profile's JSON."""
import json
import sys

forward = json.load(open(sys.argv[1]))["methods"][0]
assert forward["name"] == "forward" and forward["runs"] == 2
add, xnn, relu = forward["instructions"]
assert add["outputs"] == [{"kind": "tensor", "dtype": "float",
                           "shape": [2, 8], "stats": {
                               "min": 0, "max": 15, "mean": 7.5, "nan": 0,
                               "inf": 0}}], add["outputs"]
assert [o["kind"] for o in xnn["outputs"]] == ["tensor_list", "tensor"]
assert xnn["outputs"][1]["stats"]["min"] == -3
stats = relu["outputs"][0]["stats"]
assert (stats["min"], stats["max"], stats["nan"], stats["inf"]) == (
    -1, "inf", 1, 1), stats
assert abs(stats["mean"] - 13 / 14) < 1e-9
assert relu["outputs"][1] == {"kind": "int", "value": 3}
assert forward["outputs"] == [{
    "kind": "tensor", "dtype": "float", "shape": [2, 8], "stats": None,
    "no_stats": "its data is not in the debug buffer"}], forward["outputs"]
