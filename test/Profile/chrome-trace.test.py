"""Parses emit-profile's Chrome trace back and checks it against the
ETDump etdump-gen.py wrote (joined, unmatched or alone)."""
import json
import sys

trace = json.load(open(sys.argv[1]))
scenario = sys.argv[2]
assert trace["displayTimeUnit"] == "ns"
assert trace["otherData"]["generator"] == "emit-profile"
events = trace["traceEvents"]
lanes = {e["tid"]: e["args"]["name"] for e in events if e["ph"] == "M"}
spans = [e for e in events if e["ph"] == "X"]
assert all(e["pid"] == 1 and e["dur"] >= 0 and e["ts"] >= 0 for e in spans)
assert min(e["ts"] for e in spans) == 0


def inside(inner, outer):
    return (outer["ts"] <= inner["ts"] and
            inner["ts"] + inner["dur"] <= outer["ts"] + outer["dur"] + 1e-9)


def check_nesting():
    """Every instruction's event lies in its block's Method::execute, on the
    same thread; a delegate's own events in its DELEGATE_CALL."""
    executes = {e["args"]["block"]: e for e in spans
                if e["args"]["event"] == "Method::execute"}
    for e in spans:
        if "chain" not in e["args"]:
            continue
        run = executes[e["args"]["block"]]
        assert run["tid"] == e["tid"] and inside(e, run), e
        if e["cat"] == "delegate":
            call = [c for c in spans if c["args"]["event"] == "DELEGATE_CALL"
                    and c["args"]["block"] == e["args"]["block"]]
            assert inside(e, call[0]), e


if scenario == "joined":
    assert lanes == {1: "forward", 2: "decode", 3: "decode_long"}, lanes
    assert len(spans) == 34
    by_lane = {name: [e for e in spans if e["tid"] == tid]
               for tid, name in lanes.items()}
    assert len(by_lane["forward"]) == 18 and len(by_lane["decode"]) == 7
    names = [e["name"] for e in by_lane["forward"]
             if e["args"].get("instruction") == 0 and e["cat"] ==
             "instruction"]
    assert names == ["aten::add.out", "aten::add.out"], names
    call = [e for e in by_lane["forward"]
            if e["args"]["event"] == "DELEGATE_CALL"][0]
    assert call["name"] == "XnnpackBackend" and call["dur"] == 1.0, call
    own = sorted(e["name"] for e in by_lane["forward"]
                 if e["cat"] == "delegate")
    assert own == ["#7", "#7", "conv", "conv"], own
    kernel = [e for e in by_lane["decode"] if e["cat"] == "kernel"]
    assert [e["name"] for e in kernel] == ["native_call_mul.out",
                                           "native_call_relu.out"]
    starts = [e["ts"] for e in spans]
    assert starts == sorted(starts)
    check_nesting()
elif scenario == "unmatched":
    # Blocks no method explains on one lane; those any of the three may
    # have run (alike) on a lane of their own.
    assert lanes == {1: "forward", 4: "unmatched",
                     5: "forward | decode | decode_long"}, lanes
    assert {e["args"]["block"] for e in spans if e["tid"] == 4} == {0, 1}
    assert {e["args"]["block"] for e in spans if e["tid"] == 5} == {2, 4, 5}
elif scenario == "alone":
    assert trace["otherData"]["program"] is None
    assert lanes == {1: "ETDump"} and len(spans) == 34
    assert {e["name"] for e in spans if e["cat"] == "instruction"} == {
        "OPERATOR_CALL", "DELEGATE_CALL"}
    check_nesting()
