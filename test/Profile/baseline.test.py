"""The comparison in emit-profile's JSON (schema emit-profile-1)."""
import json
import sys

baseline = json.load(open(sys.argv[1]))["baseline"]
assert baseline["etdump"] == "joined.etdp" and baseline["program"] == "old.pte"
methods = {m["name"]: m for m in baseline["methods"]}
assert methods["forward"]["matched_by"] == "operator"
assert methods["forward"]["why"] == "the method differs between the programs"
assert (methods["decode"]["matched_by"], methods["decode"]["old_run_ns"],
        methods["decode"]["new_run_ns"]) == ("instruction", 260, 250)
first = baseline["instructions"][0]
assert (first["method"], first["chain"], first["instruction"], first["name"],
        first["old_ns"], first["new_ns"], first["ratio"]) == (
    "decode", 0, 1, "aten::relu.out", 40, 30, 0.75), first
assert all(i["method"] == "decode" for i in baseline["instructions"])
new = baseline["operators"][0]
assert (new["name"], new["old_ns"], new["new_ns"], new["ratio"]) == (
    "aten::mul.out", 0, 300, None), new
assert baseline["only_baseline"] == ["decode_long"]
assert baseline["only_this_run"] == []
