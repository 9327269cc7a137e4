# ===- test_emit.py - The Python package emit -----------------------------===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Run by the lit suite (python.test here) with
#   PYTHONPATH=<build>/python_packages /usr/bin/python3 -m pytest test/CAPI
# and against an installed wheel (test/Install/wheel.test) with
#   EMIT_TOOLS_DIR=<venv>/bin <venv>/bin/python -m pytest test/CAPI
# ===----------------------------------------------------------------------===#

import json
import os
import shutil
import subprocess
import sys

import jsonschema
import pytest

import emit

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))
# The tools: EMIT_TOOLS_DIR (an installed wheel's environment), or those of
# the build the package comes from, <build>/python_packages/emit.
BIN = os.environ.get("EMIT_TOOLS_DIR") or os.path.join(os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(emit.__file__)))), "bin")


def tool(*args, **kwargs):
    return subprocess.run([os.path.join(BIN, args[0])] + list(args[1:]),
                          check=True, capture_output=True, **kwargs)


@pytest.fixture
def qnn(tmp_path):
    """The example program (prefill and decode sharing a QNN context
    binary and an XNNPACK payload) written without deduplication."""
    ir = tool("emit-opt", os.path.join(ROOT, "examples",
                                       "llm-prefill-decode.mlir"),
              "--canonicalize").stdout
    path = tmp_path / "qnn.nodedup.pte"
    tool("emit-translate", "--to-pte", "-o", str(path), input=ir)
    return path


def test_dedup_paths_is_pte_to_pte(qnn, tmp_path):
    out = tmp_path / "out.pte"
    report = emit.dedup(qnn, out)
    fast = tmp_path / "fast.pte"
    tool("emit-translate", "--pte-to-pte", str(qnn), "-o", str(fast))
    assert out.read_bytes() == fast.read_bytes()
    assert report["schema"] == "emit-dedup-report-2"
    assert (report["bytes_before"], report["bytes_after"]) == (10240, 5120)
    # The calls keep their own entries; only bytes are shared.
    summary = emit.summary(out)
    assert summary["delegate_entries"] == 4
    assert summary["payload_bytes_stored"] == 5120


def test_dedup_bytes(qnn, tmp_path):
    data, report = emit.dedup(qnn.read_bytes())
    out = tmp_path / "out.pte"
    emit.dedup(qnn, out)
    assert data == out.read_bytes()
    assert report["bytes_after"] == 5120
    # bytearray and memoryview work too.
    assert emit.dedup(bytearray(qnn.read_bytes()))[0] == data
    assert emit.dedup(memoryview(qnn.read_bytes()))[0] == data


def test_policy(qnn):
    # prefill and decode are different methods: nothing to share per method.
    data, report = emit.dedup(qnn.read_bytes(), scope="method")
    assert report["bytes_before"] == report["bytes_after"] == 10240
    # Below min_size, nothing merges either.
    _, report = emit.dedup(qnn.read_bytes(), min_size=1 << 20)
    assert report["bytes_after"] == 10240
    _, report = emit.dedup(qnn.read_bytes(), dry_run=True)
    assert report["programs"][0]["dry_run"] is True


def validate(document, name):
    """`document` meets docs/schemas/`name`.schema.json."""
    with open(os.path.join(ROOT, "docs", "schemas",
                           name + ".schema.json")) as schema:
        jsonschema.Draft202012Validator(json.load(schema)).validate(document)


def test_summary(qnn):
    by_path = emit.summary(qnn)
    by_bytes = emit.summary(qnn.read_bytes())
    assert by_path["schema"] == "emit-summary-2"
    validate(by_path, "emit-summary-2")
    assert by_path["dedup_saves"] == by_bytes["dedup_saves"] == 5120
    assert by_path["bytes_by_kind"]["delegate"] == 10240
    assert [m["name"] for m in by_path["methods"]] == ["prefill", "decode"]
    assert {b["id"] for b in by_path["backends"]} == {"QnnBackend",
                                                     "XnnpackBackend"}
    assert sorted(len(g["blobs"]) for g in by_path["identical"]) == [2, 2]


def test_errors_name_the_place(qnn, tmp_path):
    with pytest.raises(emit.EmitError, match=r"at byte 0 .*a \.pte has at "
                                             r"least 8"):
        emit.dedup(b"garbage")
    damaged = bytearray(qnn.read_bytes())
    damaged[4:8] = b"XX99"
    with pytest.raises(emit.EmitError, match=r"^<bytes>:0:0: error: at byte 4 "
                                             r"\(file identifier\): expected "
                                             r"'ET12'"):
        emit.summary(bytes(damaged))
    with pytest.raises(emit.EmitError, match="invalid scope 'nope'"):
        emit.dedup(qnn.read_bytes(), scope="nope")
    with pytest.raises(emit.EmitError, match="no-such-option"):
        emit.dedup(qnn.read_bytes(), no_such_option=1)
    with pytest.raises(emit.EmitError, match="report='x.json' is not an "
                                             "option here"):
        emit.dedup(qnn.read_bytes(), report="x.json")
    with pytest.raises(emit.EmitError, match="cannot read '.*missing.pte'"):
        emit.summary(tmp_path / "missing.pte")


def test_failure_writes_nothing(qnn, tmp_path):
    out = tmp_path / "out.pte"
    out.write_bytes(b"previous")
    with pytest.raises(emit.EmitError):
        emit.dedup(qnn, out, scope="nope")
    assert out.read_bytes() == b"previous"
    assert sorted(os.listdir(tmp_path)) == ["out.pte", "qnn.nodedup.pte"]


def test_arguments():
    with pytest.raises(TypeError):
        emit.dedup(b"data", "out.pte")
    with pytest.raises(TypeError):
        emit.dedup("in.pte")


def test_data_file(tmp_path):
    """A .ptd goes through the same calls: its equal segments are stored
    once, every key keeps its bytes, and the summary speaks of keys."""
    ptd = tmp_path / "weights.ptd"
    tool("emit-translate", "--to-ptd", "-o", str(ptd),
         os.path.join(ROOT, "test", "Target", "PTE", "ptd-summary-html.mlir"))
    summary = emit.summary(ptd)
    assert summary["data_file"]
    assert (summary["keys"], summary["dedup_saves"]) == (3, 4)
    out = tmp_path / "weights.dedup.ptd"
    report = emit.dedup(ptd, out)
    assert (report["bytes_before"], report["bytes_after"]) == (12, 8)
    assert out.read_bytes() == emit.dedup(ptd.read_bytes())[0]
    assert emit.summary(out)["dedup_saves"] == 0
    ir = tool("emit-translate", "--from-ptd", "--embed-payloads",
              str(out)).stdout.decode()
    assert ir.count("et.blob @") == 2 and ir.count("et.named_data") == 3


def test_verify(qnn, tmp_path):
    """emit.verify is emit-verify --format=json, on paths and on bytes; a
    defect is a finding in the report, not an exception."""
    clean = emit.verify(qnn)
    assert clean["schema"] == "emit-verify-1"
    validate(clean, "emit-verify-1")
    assert (clean["runtime_load"], clean["findings"]) == ("loads", [])
    assert clean["files"] == [str(qnn)]
    assert emit.verify(qnn.read_bytes())["findings"] == []

    # Cut in half: the flatbuffer or its segments run past the end.
    data = qnn.read_bytes()
    report = emit.verify(data[:len(data) // 2])
    assert report["findings"], "a truncated program has findings"
    assert report["runtime_load"] in ("rejects", "crashes")
    validate(report, "emit-verify-1")
    first = report["findings"][0]
    assert set(first) >= {"severity", "check", "file", "offset", "path",
                          "message"}
    assert first["file"] == "<bytes>"

    by_cli = json.loads(subprocess.run(
        [os.path.join(BIN, "emit-verify"), "--format=json", str(qnn)],
        capture_output=True, check=True).stdout)
    assert by_cli == clean

    with pytest.raises(emit.EmitError, match="cannot read"):
        emit.verify(tmp_path / "missing.pte")
    with pytest.raises(emit.EmitError, match="cannot read"):
        emit.verify(qnn, data=[tmp_path / "missing.ptd"])


UINT16_PROGRAM = """
et.program @uint {
  et.blob @constants align 16 = dense<> : tensor<0xi8>
  et.constant_segment @constants offsets [0]
  et.method @forward buffers [0, 16] {
    %0 = et.tensor uint16 [4] dim_order [0] mem(1, 0)
    et.chain inputs(%0) outputs(%0) {
    }
    et.signature inputs(%0) outputs(%0)
  }
}
"""


def test_verify_runtime(tmp_path):
    """emit.verify(runtime=) is emit-verify --runtime: a verdict per
    release, on paths and on bytes; one release alone; an unknown release
    is an error naming the known ones."""
    program = tmp_path / "uint.pte"
    tool("emit-translate", "--to-pte", "-o", str(program),
         input=UINT16_PROGRAM.encode())
    report = emit.verify(program, runtime="all")
    verdicts = {entry["release"]: entry["verdict"]
                for entry in report["runtimes"]}
    assert verdicts["0.1"] == "crashes"
    assert verdicts["0.4"] == "rejects"
    assert verdicts["0.5"] == verdicts["main"] == "loads"
    assert (report["oldest"], report["newest"]) == ("0.5", "main")
    reason = report["runtimes"][1]["reasons"][0]
    assert (reason["feature"], reason["first_release"]) == (
        "scalar-type-uint", "0.5")

    by_cli = json.loads(subprocess.run(
        [os.path.join(BIN, "emit-verify"), "--runtime=all", "--format=json",
         str(program)], capture_output=True, check=True).stdout)
    assert by_cli == report
    from_bytes = emit.verify(program.read_bytes(), runtime="all")
    assert from_bytes["runtimes"] == report["runtimes"]

    one = emit.verify(program, runtime="v1.2.0")["runtimes"]
    assert [entry["release"] for entry in one] == ["1.2"]
    assert "runtimes" not in emit.verify(program)
    with pytest.raises(emit.EmitError, match="not a release emit knows"):
        emit.verify(program, runtime="9.9")


KERNELS_PROGRAM = """
et.program @kernels {
  et.constant_segment offsets [0]
  et.method @forward buffers [0, 64] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor int [1, 2, 1, 2] dim_order [0, 2, 3, 1] mem(1, 16)
    %2 = et.int 1
    %add = et.operator "aten::add" overload "out"
    %fft = et.operator "aten::_fft_r2c" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %add (%0, %0, %2, %0)
      et.kernel_call %add (%1, %1, %2, %1)
      et.kernel_call %fft (%0, %2, %0)
    }
    et.signature inputs() outputs()
  }
}
"""


def test_verify_kernels(tmp_path):
    """emit.verify(kernels=) is emit-verify --kernels: the calls a build
    runs no kernel for, at main and per release, on paths and bytes; a
    list of libraries is the comma-separated string."""
    program = tmp_path / "kernels.pte"
    tool("emit-translate", "--to-pte", "-o", str(program),
         input=KERNELS_PROGRAM.encode())
    report = emit.verify(program, kernels="portable")
    validate(report, "emit-verify-1")
    assert report["runtime_load"] == "rejects"
    assert report["kernels"] == {
        "build": "portable", "kernel_calls": 3, "release": "main",
        "missing": [{"method": "forward", "chain": 0, "instruction": 2,
                     "operator": "aten::_fft_r2c.out",
                     "kernel_key": "v1/6;0|6;0", "calls": 1,
                     "libraries": ["optimized"]}]}
    assert [f["check"] for f in report["findings"]] == ["kernel-missing"]
    by_cli = json.loads(subprocess.run(
        [os.path.join(BIN, "emit-verify"), "--kernels=portable",
         "--format=json", str(program)], capture_output=True).stdout)
    assert by_cli == report
    assert emit.verify(program.read_bytes(), kernels=["portable"])[
        "kernels"]["missing"] == report["kernels"]["missing"]

    both = emit.verify(program, kernels=["portable", "optimized"],
                       runtime="all")
    assert both["runtime_load"] == "loads"
    assert both["oldest"] == "0.6"  # optimized's fft, from 0.6
    assert "runtimes" not in report
    with pytest.raises(emit.EmitError, match="kernels: 'nosuch' is not a "
                                             "library"):
        emit.verify(program, kernels="nosuch")


def test_selected_ops(tmp_path):
    """emit.selected_ops is emit-verify --write-selected-ops: the programs'
    operators and kernel keys as a selected_operators.yaml."""
    program = tmp_path / "kernels.pte"
    tool("emit-translate", "--to-pte", "-o", str(program),
         input=KERNELS_PROGRAM.encode())
    text = emit.selected_ops([program], kernels="optimized")
    written = tmp_path / "selected.yaml"
    tool("emit-verify", "--write-selected-ops=" + str(written),
         "--kernels=optimized", str(program))
    assert text == written.read_text()
    assert "aten::add.out:\n  - v1/3;0,2,3,1|3;0,2,3,1|3;0,2,3,1\n" \
        "  - v1/6;0|6;0|6;0\n" in text
    assert '# optimized (2 operators): EXECUTORCH_SELECT_OPS_LIST=' \
        '"aten::_fft_r2c.out,aten::add.out"' in text
    every = emit.selected_ops(program)
    assert '# portable (1 operator): EXECUTORCH_SELECT_OPS_LIST=' \
        '"aten::add.out"' in every
    assert every.count("EXECUTORCH_SELECT_OPS_LIST") == 7
    with pytest.raises(emit.EmitError, match="cannot read"):
        emit.selected_ops([program, tmp_path / "missing.pte"])
    with pytest.raises(emit.EmitError, match="not a release emit knows"):
        emit.selected_ops(program, runtime="9.9")


SPECLESS_PROGRAM = """
et.program @specless {
  et.method @forward buffers [0, 16] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %d = et.delegate "B" #et.blob<dense<[1, 2, 3, 4]> : tensor<4xi8>, align 16>
    et.chain inputs(%0) outputs(%0) {
      et.call_delegate %d (%0)
    }
    et.signature inputs(%0) outputs(%0)
  }
}
"""


def test_dedup_target_runtime(tmp_path):
    """emit.dedup(target_runtime=) is --pte-to-pte --target-runtime after
    the dedup pass: the result loads on that release, on paths and on
    bytes; a feature no rewrite removes raises, nothing written."""
    program = tmp_path / "specless.pte"
    tool("emit-translate", "--to-pte", "-o", str(program),
         input=SPECLESS_PROGRAM.encode())
    before = emit.verify(program, runtime="1.2")["runtimes"][0]
    assert before["verdict"] == "crashes"
    out = tmp_path / "for-1.2.pte"
    emit.dedup(program, out, target_runtime="1.2")
    after = emit.verify(out, runtime="1.2")["runtimes"][0]
    assert (after["verdict"], after["reasons"]) == ("loads", [])
    data, _ = emit.dedup(program.read_bytes(), target_runtime="v1.2.0")
    assert emit.verify(data, runtime="1.2")["runtimes"][0]["verdict"] == \
        "loads"

    uint = tmp_path / "uint.pte"
    tool("emit-translate", "--to-pte", "-o", str(uint),
         input=UINT16_PROGRAM.encode())
    refused = tmp_path / "refused.pte"
    with pytest.raises(emit.EmitError, match="scalar-type-uint"):
        emit.dedup(uint, refused, target_runtime="0.4")
    assert not refused.exists()
    with pytest.raises(emit.EmitError, match="not a release emit knows"):
        emit.dedup(uint, refused, target_runtime="2.0")


DATA_FILE = """
et.data_file @w {
  et.blob @w align 16 segment = dense<1> : tensor<16xi8>
  et.named_data "w" = @w layout #et.tensor_layout<float [4] dim_order [0]>
}
"""


def test_data_file_target_runtime(tmp_path):
    """A .ptd converts between the layouts of 0.6 and of 0.7 on: each
    release's verdict follows; no release before 0.6 reads one."""
    data = tmp_path / "w.ptd"
    tool("emit-translate", "--to-ptd", "-o", str(data),
         input=DATA_FILE.encode())
    verdicts = {entry["release"]: entry["verdict"]
                for entry in emit.verify(data, runtime="all")["runtimes"]}
    assert (verdicts["0.5"], verdicts["0.6"], verdicts["0.7"]) == \
        ("rejects", "crashes", "loads")
    old = tmp_path / "w-0.6.ptd"
    emit.dedup(data, old, target_runtime="0.6")
    report = emit.verify(old, runtime="all")
    assert (report["oldest"], report["newest"]) == ("0.6", "0.6")
    back, _ = emit.dedup(old.read_bytes(), target_runtime="main")
    assert emit.verify(back, runtime="main")["runtimes"][0]["verdict"] == \
        "loads"
    with pytest.raises(emit.EmitError, match="reads no data files"):
        emit.dedup(data, tmp_path / "none.ptd", target_runtime="0.5")
    assert not (tmp_path / "none.ptd").exists()


def test_memory(qnn, tmp_path):
    """emit.memory is emit-memory --format=json, on paths and on bytes: per
    method, planned buffers, method allocator bytes per target, tensors."""
    report = emit.memory(qnn)
    assert report["schema"] == "emit-memory-1"
    assert report["runtime_revision"]
    assert [m["name"] for m in report["methods"]] == ["prefill", "decode"]
    for method in report["methods"]:
        assert set(method["method_allocator_bytes"]) == {"64", "32"}
        assert method["method_allocator_bytes"]["64"] > \
            method["method_allocator_bytes"]["32"] > 0
        assert method["findings"] == []
        assert {b["id"] for b in method["backends"]} <= {"QnnBackend",
                                                       "XnnpackBackend"}
    by_bytes = emit.memory(qnn.read_bytes())
    assert by_bytes["methods"] == report["methods"]
    assert by_bytes["file"] == "<bytes>"

    by_cli = json.loads(tool("emit-memory", "--format=json",
                             str(qnn)).stdout)
    assert by_cli == report

    with pytest.raises(emit.EmitError, match="cannot read"):
        emit.memory(tmp_path / "missing.pte")
    with pytest.raises(emit.EmitError, match="cannot be read"):
        emit.memory(qnn.read_bytes()[:100])


SAMPLES = os.path.join(os.path.dirname(ROOT), "shared", "pte-samples")


@pytest.mark.skipif(
    not os.path.exists(os.path.join(SAMPLES, "bundled_program.bpte")),
    reason="../shared/pte-samples/bundled_program.bpte not found")
def test_bundled_program(tmp_path):
    """Every function takes a bundled program, by path and by bytes: the
    embedded program is checked, sized, deduplicated and compared, its
    suites kept, checked and counted."""
    path = os.path.join(SAMPLES, "bundled_program.bpte")
    report = emit.verify(path)
    assert report["runtime_load"] == "loads"
    assert [f["check"] for f in report["findings"]] == [
        "bundle-program-alignment"]
    memory = emit.memory(open(path, "rb").read())
    assert [m["name"] for m in memory["methods"]] == ["forward"]
    assert memory["methods"][0]["method_allocator_bytes"] == {"64": 872,
                                                              "32": 540}
    summary = emit.summary(path)
    assert summary["bundle"]["test_suites"] == 1
    assert summary["bundle"]["test_cases"] == 10

    # Rewritten, the bundle keeps its suites and its program's alignment.
    out = tmp_path / "rewritten.bpte"
    emit.dedup(path, out)
    assert emit.verify(out)["findings"] == []
    data, _ = emit.dedup(open(path, "rb").read())
    assert data == out.read_bytes()
    same = emit.diff(path, out)
    assert same["same_content"] is True and same["test_suites"] == []


@pytest.fixture
def profiled(tmp_path):
    """The program of emit-profile's tests and its ETDumps, written with
    flatc from the ETDump schema."""
    flatc = shutil.which("flatc")
    if not flatc:
        pytest.skip("flatc is not installed")
    inputs = os.path.join(ROOT, "test", "Profile", "Inputs")
    subprocess.run([sys.executable, os.path.join(inputs, "etdump-gen.py"),
                    flatc, os.path.join(ROOT, "schema"), str(tmp_path)],
                   check=True)
    program = tmp_path / "profiled.pte"
    tool("emit-translate", "--to-pte", "-o", str(program),
         os.path.join(inputs, "profiled.mlir"))
    return program, tmp_path


def test_profile(profiled, tmp_path):
    """emit.profile is emit-profile --format=json: joined to its program,
    alone, and with blocks no method explains (a report, not an error)."""
    program, dumps = profiled
    report = emit.profile(dumps / "joined.etdp", program)
    assert report["schema"] == "emit-profile-1"
    assert [m["name"] for m in report["methods"]] == [
        "forward", "decode", "decode_long"]
    assert report["methods"][0]["by_backend"][0]["name"] == "XnnpackBackend"
    by_cli = json.loads(tool("emit-profile", "--format=json", str(program),
                             str(dumps / "joined.etdp")).stdout)
    assert by_cli == report

    alone = emit.profile(dumps / "joined.etdp")
    assert alone["program"] is None and alone["methods"] == []
    assert alone["events"][0]["name"] == "Program::load_method"

    unmatched = emit.profile(str(dumps / "unmatched.etdp"), str(program))
    assert len(unmatched["unmatched"]) == 3
    assert unmatched["methods"][1]["candidates"] == [
        "forward", "decode", "decode_long"]

    debug = emit.profile(dumps / "debug.etdp", program,
                         debug_buffer=dumps / "debug.bin")
    add = debug["methods"][0]["instructions"][0]
    assert add["outputs"][0]["stats"]["max"] == 15

    with pytest.raises(emit.EmitError, match="cannot read"):
        emit.profile(tmp_path / "missing.etdp")
    with pytest.raises(emit.EmitError, match="expected 'ED00'"):
        emit.profile(program)


def test_graph(qnn, profiled, tmp_path):
    """emit.graph is emit-graph --format=json, on paths and on bytes: per
    method its nodes, values, edges and fallback counts; with a run's
    ETDump, each node's time."""
    graph = emit.graph(qnn)
    assert graph["schema"] == "emit-graph-2"
    validate(graph, "emit-graph-2")
    assert [m["name"] for m in graph["methods"]] == ["prefill", "decode"]
    prefill = graph["methods"][0]
    delegates = [n for n in prefill["nodes"] if n["kind"] == "delegate"]
    assert {n["delegate"]["backend"] for n in delegates} <= {
        "QnnBackend", "XnnpackBackend"}
    assert prefill["fallback"]["delegate_calls"] == len(delegates)
    by_cli = json.loads(tool("emit-graph", "--format=json", str(qnn)).stdout)
    assert by_cli == graph
    by_bytes = emit.graph(qnn.read_bytes())
    assert by_bytes["file"] == "<bytes>"
    assert by_bytes["methods"] == graph["methods"]

    program, dumps = profiled
    timed = emit.graph(program, profile=dumps / "joined.etdp")
    add = timed["methods"][0]["nodes"][1]
    assert (add["name"], add["time"]["total_ns"]) == ("aten::add.out", 220)
    on_bytes = emit.graph(program.read_bytes(),
                          profile=str(dumps / "joined.etdp"))
    assert on_bytes["methods"] == timed["methods"]

    with pytest.raises(emit.EmitError, match="cannot read"):
        emit.graph(tmp_path / "missing.pte")
    with pytest.raises(emit.EmitError, match="cannot be drawn"):
        emit.graph(qnn.read_bytes()[:100])
    with pytest.raises(emit.EmitError, match="cannot read"):
        emit.graph(qnn, data=[tmp_path / "missing.ptd"])


def test_profile_options(profiled, tmp_path):
    """emit.profile's methods=, in_order= and baseline= are emit-profile's
    --method, --in-order and --baseline: the same report as the tool's."""
    program, dumps = profiled

    def cli(*args, check=True):
        return json.loads(subprocess.run(
            [os.path.join(BIN, "emit-profile"), "--format=json"] +
            [str(arg) for arg in args], check=check,
            capture_output=True).stdout)

    order = ["decode", "forward"]
    ordered = emit.profile(dumps / "in-order.etdp", program, methods=order,
                           in_order=True)
    assert ordered == cli(program, dumps / "in-order.etdp", "--method=decode",
                          "--method=forward", "--in-order")
    assert all("--in-order" in block["how"]
               for method in ordered["methods"] for block in method["blocks"])
    only = emit.profile(dumps / "joined.etdp", program, methods="decode")
    assert only == cli(program, dumps / "joined.etdp", "--method=decode",
                       check=False)

    inputs = os.path.join(ROOT, "test", "Profile", "Inputs")
    new = tmp_path / "new.pte"
    tool("emit-translate", "--to-pte", "-o", str(new),
         os.path.join(inputs, "profiled-v2.mlir"))
    compared = emit.profile(dumps / "v2.etdp", new,
                            baseline=(program, dumps / "joined.etdp"))
    assert compared == cli(new, dumps / "v2.etdp", "--baseline", program,
                           dumps / "joined.etdp")
    assert compared["baseline"]["methods"][1]["matched_by"] == "instruction"
    with pytest.raises(emit.EmitError, match="baseline: cannot read"):
        emit.profile(dumps / "v2.etdp", new,
                     baseline=(program, tmp_path / "missing.etdp"))


def test_diff(qnn, tmp_path):
    """emit.diff is emit-diff --format=json: a program against its
    deduplicated self holds the same content; a grown payload is a changed
    delegate entry; what cannot be compared raises."""
    deduped = tmp_path / "qnn.dedup.pte"
    emit.dedup(qnn, deduped)
    same = emit.diff(qnn, deduped)
    assert same["schema"] == "emit-diff-1"
    assert same["same_content"] is True
    assert same["by_kind"]["delegate"] == {"old": 10240, "new": 5120}
    assert (same["methods"], same["delegates"]) == ([], [])

    ir = tool("emit-opt", os.path.join(ROOT, "examples",
                                       "llm-prefill-decode.mlir"),
              "--canonicalize").stdout.decode()
    grown = tmp_path / "grown.pte"
    # The decode method's XNNPACK payload, one byte different.
    edited = ir.replace('xnn_head_decode: "0x100000001C',
                        'xnn_head_decode: "0x100000001D')
    assert edited != ir
    tool("emit-translate", "--to-pte", "-o", str(grown),
         input=edited.encode())
    changed = emit.diff(qnn, grown)
    assert changed["same_content"] is False
    assert [(d["change"], d["method"], d["index"], d["payload_changed"])
            for d in changed["delegates"]] == [("changed", "decode", 1,
                                                True)]

    by_cli = subprocess.run(
        [os.path.join(BIN, "emit-diff"), "--format=json", str(qnn),
         str(grown)], capture_output=True)
    assert by_cli.returncode == 1
    assert json.loads(by_cli.stdout) == changed

    with pytest.raises(emit.EmitError, match="cannot read"):
        emit.diff(qnn, tmp_path / "missing.pte")

    # The graphs: the payload whose byte changed is the one call changed,
    # as emit-diff --graph says; a method pair is named as --method does.
    graphs = emit.diff(qnn, grown, graph=True)
    assert graphs["schema"] == "emit-graph-diff-1"
    assert graphs["unchanged"] is False
    changes = [(m["new_name"], c["old"]["id"], c["new"]["id"], c["what"])
               for m in graphs["methods"] for c in m["changed"]]
    assert len(changes) == 1 and changes[0][0] == "decode"
    assert "payload" in changes[0][3]
    by_cli = subprocess.run(
        [os.path.join(BIN, "emit-diff"), "--graph", "--format=json",
         str(qnn), str(grown)], capture_output=True)
    assert by_cli.returncode == 1
    assert json.loads(by_cli.stdout) == graphs
    assert emit.diff(qnn, deduped, graph=True)["unchanged"] is True
    told = emit.diff(qnn, grown, graph=True, methods={"decode": "prefill"})
    assert [(m["old_name"], m["new_name"]) for m in told["methods"]][0] == \
        ("decode", "prefill")
    with pytest.raises(emit.EmitError, match="no method 'nope'"):
        emit.diff(qnn, grown, graph=True, methods={"nope": "decode"})
    with pytest.raises(ValueError, match="graph=True"):
        emit.diff(qnn, grown, methods={"decode": "decode"})


MODEL = """
et.program @model {
  et.method @forward buffers [0, 16] {
    %0 = et.tensor float [2, 2] dim_order [0, 1] info #et.tensor_info<fqn = "linear.weight", location = external>
    %1 = et.tensor float [2] dim_order [0] mem(1, 0)
    et.chain inputs(%1) outputs(%1) {
    }
    et.signature inputs(%1) outputs(%1)
  }
}
"""

WEIGHTS = """
et.data_file @weights {
  et.blob @w align 16 = dense<[0, 0, -128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, -128, 64]> : tensor<16xi8>
  et.blob @s align 16 = dense<7> : tensor<600xi8>
  et.named_data "linear.weight" = @w layout #et.tensor_layout<float [2, 2] dim_order [0, 1]>
  et.named_data "scale" = @s
}
"""


def test_link(tmp_path):
    """emit.link is emit-link: internalized, the program verifies with no
    data file; split into small files and page-aligned, it loads with all of
    them and holds what it held; bad options raise and write nothing."""
    model, weights = tmp_path / "model.pte", tmp_path / "weights.ptd"
    tool("emit-translate", "--to-pte", "-o", str(model), input=MODEL.encode())
    tool("emit-translate", "--to-ptd", "-o", str(weights),
         input=WEIGHTS.encode())

    inside = tmp_path / "inside.pte"
    report = emit.link(model, output=inside, data=[weights], internalize=True)
    assert report["schema"] == "emit-link-report-1"
    assert emit.verify(inside)["runtime_load"] == "loads"

    out = tmp_path / "out"
    emit.link(inside, out_dir=out, external_data=out / "w.ptd",
              externalize_constants=0, max_data_file_bytes=1024)
    parts = sorted(p.name for p in out.iterdir() if p.suffix == ".ptd")
    assert parts == ["w-1.ptd", "w-2.ptd"]
    parts = [out / name for name in parts]
    assert all(part.stat().st_size <= 1024 for part in parts)
    verdict = emit.verify(out / "inside.pte", data=parts)
    assert verdict["runtime_load"] == "loads"
    assert [f["check"] for f in verdict["findings"]] == ["unused-data"]
    same = emit.diff(model, out / "inside.pte", old_data=[weights],
                     new_data=parts)
    assert same["same_content"] is True

    paged = tmp_path / "paged"
    emit.link(inside, out_dir=paged, external_data=paged / "w.ptd",
              segment_alignment=16384)
    assert emit.summary(paged / "w.ptd")["keys"] == 1

    with pytest.raises(emit.EmitError, match="power of two"):
        emit.link(model, output=tmp_path / "bad.pte", segment_alignment=100)
    with pytest.raises(emit.EmitError, match="'linear.weight'"):
        emit.link(model, output=tmp_path / "bad.pte", internalize=True)
    assert not (tmp_path / "bad.pte").exists()


def test_version_is_the_tools():
    # One place sets it: the root CMakeLists.txt's project().
    assert emit.__version__ == emit.version()
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        assert "project(emit VERSION %s " % emit.__version__ in f.read()
    for name in ("emit-opt", "emit-translate", "emit-link", "emit-verify",
                 "emit-diff"):
        printed = tool(name, "--version").stdout.decode()
        assert printed.startswith("emit %s (MLIR " % emit.__version__), name


def test_errors_are_emit_errors():
    with pytest.raises(emit.EmitError, match="at byte 4 .file identifier."):
        emit.summary(b"not a program at all")


CHAIN_PROGRAM = """
et.program @chain {
  et.method @forward buffers [0, 64] {
    %0 = et.tensor float [4] dim_order [0] mem(1, 0)
    %1 = et.tensor float [4] dim_order [0] mem(1, 16)
    %2 = et.tensor float [4] dim_order [0] mem(1, 32)
    %3 = et.tensor float [4] dim_order [0] mem(1, 48)
    %relu = et.operator "aten::relu" overload "out"
    et.chain inputs() outputs() {
      et.kernel_call %relu (%0, %1)
      et.kernel_call %relu (%1, %2)
      et.kernel_call %relu (%2, %3)
    }
    et.signature inputs(%0) outputs(%3)
  }
}
"""


def test_replan(tmp_path):
    """emit.replan is --pte-to-pte --replan-memory: the same bytes and the
    same report, from a path or from memory; bad options raise."""
    program = tmp_path / "chain.pte"
    tool("emit-translate", "--to-pte", "-o", str(program),
         input=CHAIN_PROGRAM.encode())
    expected, expected_report = tmp_path / "tool.pte", tmp_path / "r.json"
    tool("emit-translate", "--pte-to-pte", "--replan-memory",
         "--replan-report=" + str(expected_report), str(program), "-o",
         str(expected))
    report = emit.replan(program, tmp_path / "api.pte")
    assert (tmp_path / "api.pte").read_bytes() == expected.read_bytes()
    data, in_memory = emit.replan(program.read_bytes())
    assert data == expected.read_bytes()
    wanted = json.loads(expected_report.read_text())
    for got in (report, in_memory):
        assert got["bytes_before"] == 64 and got["bytes_after"] == 32
        assert got["lower_bound"] == 32
        assert got["methods"] == wanted["methods"]
    _, fast = emit.replan(program.read_bytes(), fast_memory="16")
    pools = fast["methods"][0]["pools"]
    assert [p["memory_id"] for p in pools] == [1, 2] and pools[1]["fast"]
    assert fast["methods"][0]["buffer_sizes"][2] <= 16
    with pytest.raises(emit.EmitError, match="fast_memory='lots'"):
        emit.replan(program.read_bytes(), fast_memory="lots")
    with pytest.raises(emit.EmitError, match="not a power of two"):
        emit.replan(program.read_bytes(), alignment=12)
    assert not (tmp_path / "bad.pte").exists()
