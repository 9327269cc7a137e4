"""Checks getters.test's JSON reports: the forwards as a group (or, in
order, each on its own), the getters as one entry of methods with no
instructions (or each on its own), every block placed, none unmatched."""
import json
import sys

report = json.load(open(sys.argv[1]))
in_order = "--in-order" in sys.argv
methods = report["methods"]
assert report["unmatched"] == [], report["unmatched"]
placed = sorted(b["block"] for m in methods for b in m["blocks"])
assert placed == list(range(10)), placed

if not in_order:
    forwards, getters = methods
    assert forwards["name"] == "kv_forward | prefill_forward"
    assert forwards["candidates"] == ["kv_forward", "prefill_forward"]
    assert not forwards["no_instructions"]
    assert (forwards["runs"], forwards["load_ns"], forwards["init_ns"]) == (
        2, 5000, 4000)
    assert forwards["run"]["count"] == 2
    (call,) = forwards["instructions"]
    assert (call["kind"], call["backend"], call["count"], call["total_ns"]) \
        == ("delegate", "QnnBackend", 2, 2000), call
    assert getters["candidates"] == [
        "get_max_seq_len", "get_vocab_size", "get_n_layers"]
    assert getters["no_instructions"] and getters["instructions"] == []
    assert (getters["runs"], getters["load_ns"], getters["run"]["p50_ns"]) \
        == (3, 1700, 20)
    assert all("alike" in b["how"] for m in methods for b in m["blocks"])
else:
    assert [m["name"] for m in methods] == [
        "kv_forward", "prefill_forward", "get_max_seq_len",
        "get_vocab_size", "get_n_layers"], [m["name"] for m in methods]
    assert all(m["candidates"] == [] and m["runs"] == 1 for m in methods)
    assert [m["instructions"][0]["total_ns"] for m in methods[:2]] == [
        900, 1100]
    assert [m["no_instructions"] for m in methods] == [
        False, False, True, True, True]
    assert all("--in-order" in b["how"] for m in methods for b in m["blocks"])
