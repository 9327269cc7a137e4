# ===- emit/_capi.py - The C API through ctypes ---------------------------===#
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# Loads libEmitCAPI.so (include/emit-c/Emit.h), which the build puts beside
# this package in _lib/.
# ===----------------------------------------------------------------------===#

import ctypes
import json
import os
from typing import Any, Dict, Iterable, Optional, Tuple, Union, overload

__all__ = ["EmitError", "dedup", "diff", "link", "summary", "verify",
           "version"]

#: A path, as ``open`` takes one.
Path = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
#: A program or data file in memory, as ``to_executorch()`` gives it.
Data = Union[bytes, bytearray, memoryview]
#: A JSON report, decoded.
Report = Dict[str, Any]


class EmitError(RuntimeError):
    """emit refused the input or the options; the message says where and
    why, as emit's tools print it.

    Example::

        try:
            emit.summary(b"not a program")
        except emit.EmitError as error:
            print(error)  # <bytes>:0:0: error: at byte 4 (file ...
    """


class _Buffer(ctypes.Structure):
    _fields_ = [("data", ctypes.POINTER(ctypes.c_char)),
                ("size", ctypes.c_size_t)]


class _LinkOptions(ctypes.Structure):
    _fields_ = [("inputs", ctypes.POINTER(ctypes.c_char_p)),
                ("inputCount", ctypes.c_size_t),
                ("dataFiles", ctypes.POINTER(ctypes.c_char_p)),
                ("dataFileCount", ctypes.c_size_t),
                ("output", ctypes.c_char_p),
                ("outDir", ctypes.c_char_p),
                ("externalData", ctypes.c_char_p),
                ("externalizeConstants", ctypes.c_longlong),
                ("internalize", ctypes.c_int),
                ("prefixMethods", ctypes.c_int),
                ("maxDataFileBytes", ctypes.c_ulonglong),
                ("segmentAlignment", ctypes.c_ulonglong)]


class _ProfileRequest(ctypes.Structure):
    _fields_ = [("programPath", ctypes.c_char_p),
                ("etdumpPath", ctypes.c_char_p),
                ("debugBufferPath", ctypes.c_char_p),
                ("dataPaths", ctypes.POINTER(ctypes.c_char_p)),
                ("dataCount", ctypes.c_size_t),
                ("methods", ctypes.POINTER(ctypes.c_char_p)),
                ("methodCount", ctypes.c_size_t),
                ("inOrder", ctypes.c_int),
                ("baselineProgramPath", ctypes.c_char_p),
                ("baselineETDumpPath", ctypes.c_char_p)]


def _load():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_lib",
                        "libEmitCAPI.so")
    lib = ctypes.CDLL(path)
    buffer = ctypes.POINTER(_Buffer)
    lib.emitDedupFile.argtypes = [ctypes.c_char_p, ctypes.c_char_p,
                                  ctypes.c_char_p, buffer, buffer]
    lib.emitDedupBuffer.argtypes = [ctypes.c_void_p, ctypes.c_size_t,
                                    ctypes.c_char_p, buffer, buffer, buffer]
    lib.emitDedupForRuntimeFile.argtypes = [ctypes.c_char_p, ctypes.c_char_p,
                                            ctypes.c_char_p, ctypes.c_char_p,
                                            buffer, buffer]
    lib.emitDedupForRuntimeBuffer.argtypes = [ctypes.c_void_p, ctypes.c_size_t,
                                              ctypes.c_char_p, ctypes.c_char_p,
                                              buffer, buffer, buffer]
    lib.emitReplanFile.argtypes = [ctypes.c_char_p, ctypes.c_char_p,
                                   ctypes.c_char_p, ctypes.c_uint64, buffer,
                                   buffer]
    lib.emitReplanBuffer.argtypes = [ctypes.c_void_p, ctypes.c_size_t,
                                     ctypes.c_char_p, ctypes.c_uint64, buffer,
                                     buffer, buffer]
    lib.emitSummaryFile.argtypes = [ctypes.c_char_p, buffer, buffer]
    lib.emitSummaryBuffer.argtypes = [ctypes.c_void_p, ctypes.c_size_t,
                                      buffer, buffer]
    paths = ctypes.POINTER(ctypes.c_char_p)
    lib.emitVerifyFile.argtypes = [ctypes.c_char_p, paths, ctypes.c_size_t,
                                   buffer, buffer]
    lib.emitVerifyBuffer.argtypes = [ctypes.c_void_p, ctypes.c_size_t, paths,
                                     ctypes.c_size_t, buffer, buffer]
    lib.emitVerifyReleasesFile.argtypes = [ctypes.c_char_p, paths,
                                           ctypes.c_size_t, ctypes.c_char_p,
                                           buffer, buffer]
    lib.emitVerifyReleasesBuffer.argtypes = [ctypes.c_void_p, ctypes.c_size_t,
                                             paths, ctypes.c_size_t,
                                             ctypes.c_char_p, buffer, buffer]
    lib.emitVerifyKernelsFile.argtypes = [ctypes.c_char_p, paths,
                                          ctypes.c_size_t, ctypes.c_char_p,
                                          ctypes.c_char_p, buffer, buffer]
    lib.emitVerifyKernelsBuffer.argtypes = [ctypes.c_void_p, ctypes.c_size_t,
                                            paths, ctypes.c_size_t,
                                            ctypes.c_char_p, ctypes.c_char_p,
                                            buffer, buffer]
    lib.emitSelectedOps.argtypes = [paths, ctypes.c_size_t, ctypes.c_char_p,
                                    ctypes.c_char_p, buffer, buffer]
    lib.emitMemoryFile.argtypes = [ctypes.c_char_p, paths, ctypes.c_size_t,
                                   buffer, buffer]
    lib.emitMemoryBuffer.argtypes = [ctypes.c_void_p, ctypes.c_size_t, paths,
                                     ctypes.c_size_t, buffer, buffer]
    lib.emitProfile.argtypes = [ctypes.POINTER(_ProfileRequest), buffer,
                                buffer]
    lib.emitGraphFile.argtypes = [ctypes.c_char_p, paths, ctypes.c_size_t,
                                  ctypes.c_char_p, buffer, buffer]
    lib.emitGraphBuffer.argtypes = [ctypes.c_void_p, ctypes.c_size_t, paths,
                                    ctypes.c_size_t, ctypes.c_char_p, buffer,
                                    buffer]
    lib.emitDiffFiles.argtypes = [ctypes.c_char_p, paths, ctypes.c_size_t,
                                  ctypes.c_char_p, paths, ctypes.c_size_t,
                                  buffer, buffer]
    lib.emitGraphDiffFiles.argtypes = [ctypes.c_char_p, paths,
                                       ctypes.c_size_t, ctypes.c_char_p,
                                       paths, ctypes.c_size_t, paths,
                                       ctypes.c_size_t, buffer, buffer]
    lib.emitLinkFiles.argtypes = [ctypes.POINTER(_LinkOptions), buffer,
                                  buffer]
    lib.emitFree.argtypes = [buffer]
    lib.emitGetVersion.argtypes = []
    lib.emitGetVersion.restype = ctypes.c_char_p
    for function in (lib.emitDedupFile, lib.emitDedupBuffer,
                     lib.emitDedupForRuntimeFile,
                     lib.emitDedupForRuntimeBuffer,
                     lib.emitReplanFile, lib.emitReplanBuffer,
                     lib.emitSummaryFile, lib.emitSummaryBuffer,
                     lib.emitVerifyFile, lib.emitVerifyBuffer,
                     lib.emitVerifyReleasesFile, lib.emitVerifyReleasesBuffer,
                     lib.emitVerifyKernelsFile, lib.emitVerifyKernelsBuffer,
                     lib.emitSelectedOps, lib.emitMemoryFile,
                     lib.emitMemoryBuffer,
                     lib.emitProfile, lib.emitGraphFile,
                     lib.emitGraphBuffer, lib.emitDiffFiles,
                     lib.emitGraphDiffFiles, lib.emitLinkFiles):
        function.restype = ctypes.c_int
    lib.emitFree.restype = None
    return lib


_lib = _load()


def version() -> str:
    """emit's version, as its tools' ``--version`` says it (the C API
    library's).

    Example::

        >>> emit.version() == emit.__version__
        True
    """
    return _lib.emitGetVersion().decode()


def _take(buffer):
    """The bytes of an emit buffer, which is then released."""
    data = ctypes.string_at(buffer.data, buffer.size) if buffer.data else b""
    _lib.emitFree(ctypes.byref(buffer))
    return data


def _options(policy):
    """The dedup pass's options from keyword arguments: min_size=4096 is
    min-size=4096, booleans are true or false."""
    parts = []
    for key, value in policy.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        parts.append("%s=%s" % (key.replace("_", "-"), value))
    return " ".join(parts).encode()


def _check(status, error):
    message = _take(error).decode(errors="replace")
    if status:
        raise EmitError(message or "emit failed")


def _bytes_of(data):
    """`data` as bytes ctypes can point at, without a copy when it is one."""
    if isinstance(data, bytes):
        return data
    return bytes(data)


def _with_totals(report):
    """The dedup report with bytes_before and bytes_after over every
    program and data file it covers."""
    files = report.get("programs", []) + report.get("data_files", [])
    report.setdefault("bytes_before", sum(f["bytes_before"] for f in files))
    report.setdefault("bytes_after", sum(f["bytes_after"] for f in files))
    return report


@overload
def dedup(src: Path, dst: Path, target_runtime: Optional[str] = None,
          **policy: Union[str, int, bool]) -> Report:
    ...


@overload
def dedup(src: Data, dst: None = None, target_runtime: Optional[str] = None,
          **policy: Union[str, int, bool]) -> Tuple[bytes, Report]:
    ...


def dedup(src, dst=None, target_runtime=None, **policy):
    """Stores identical data of an ExecuTorch program (a ``.pte``, a bundled
    program ``.bpte``, whose test suites it keeps, or a data file) once, as
    ``emit-translate --pte-to-pte`` does; every call keeps its own delegate
    entry, backend id and compile specs.

    ``dedup(src, dst, **policy) -> dict``: from the file ``src`` to the file
    ``dst`` (written all or nothing).
    ``dedup(data, **policy) -> (bytes, dict)``: from a program in memory
    (``bytes``, ``bytearray`` or ``memoryview``).

    ``policy`` are the dedup pass's options: ``scope`` ("program" or
    "method"), ``min_size``, ``same_backend``, ``share_entries``,
    ``compact_segments``, ``dry_run``. The dict is the pass's JSON report
    (docs/DedupReport.md) with ``bytes_before`` and ``bytes_after`` over
    everything it covers.

    ``target_runtime`` ("1.3", "0.1", ...) then rewrites the result so that
    that runtime release loads it, as ``--pte-to-pte --target-runtime``
    does, or raises :class:`EmitError` naming each feature no rewrite
    removes (nothing is written).

    Example, right after an export::

        program = edge.to_executorch()
        data, report = emit.dedup(program.buffer)
        print(report["bytes_before"], "->", report["bytes_after"])
        emit.dedup("model.pte", "model.dedup.pte", scope="method")
        emit.dedup("old.pte", "for-1.3.pte", target_runtime="1.3")
    """
    options = _options(policy)
    runtime = target_runtime.encode() if target_runtime is not None else None
    report, error = _Buffer(), _Buffer()
    if isinstance(src, (bytes, bytearray, memoryview)):
        if dst is not None:
            raise TypeError("dedup(data) returns the result; give no dst")
        data = _bytes_of(src)
        output = _Buffer()
        status = _lib.emitDedupForRuntimeBuffer(data, len(data), options,
                                                runtime, ctypes.byref(output),
                                                ctypes.byref(report),
                                                ctypes.byref(error))
        result = _take(output)
        text = _take(report)
        _check(status, error)
        return result, _with_totals(json.loads(text))
    if dst is None:
        raise TypeError("dedup(src, dst) needs a destination path")
    status = _lib.emitDedupForRuntimeFile(os.fsencode(src), os.fsencode(dst),
                                          options, runtime,
                                          ctypes.byref(report),
                                          ctypes.byref(error))
    text = _take(report)
    _check(status, error)
    return _with_totals(json.loads(text))


def summary(src: Union[Path, Data]) -> Report:
    """Where the bytes of an ExecuTorch program (a ``.pte`` or a bundled
    ``.bpte``, whose ``bundle`` entry counts its test suites) or data file
    go: the JSON summary of ``emit-translate --pte-summary
    --pte-summary-format=json`` (schema emit-summary-2) as a dict. ``src``
    is a path or the bytes.

    Example::

        print(emit.summary("model.pte")["dedup_saves"])
    """
    result, error = _Buffer(), _Buffer()
    if isinstance(src, (bytes, bytearray, memoryview)):
        data = _bytes_of(src)
        status = _lib.emitSummaryBuffer(data, len(data), ctypes.byref(result),
                                        ctypes.byref(error))
    else:
        status = _lib.emitSummaryFile(os.fsencode(src), ctypes.byref(result),
                                      ctypes.byref(error))
    text = _take(result)
    _check(status, error)
    return json.loads(text)


def _paths(paths):
    """A C array of encoded paths (one path alone is a list of one), and
    its length."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    encoded = [os.fsencode(path) for path in paths]
    return (ctypes.c_char_p * max(1, len(encoded)))(*encoded), len(encoded)


def _file_report(src, data, on_file, on_buffer):
    """The JSON report a C API function pair gives on ``src`` (a path, or
    the bytes) with the data files ``data``, as a dict."""
    paths, count = _paths(data)
    report, error = _Buffer(), _Buffer()
    if isinstance(src, (bytes, bytearray, memoryview)):
        program = _bytes_of(src)
        status = on_buffer(program, len(program), paths, count,
                           ctypes.byref(report), ctypes.byref(error))
    else:
        status = on_file(os.fsencode(src), paths, count, ctypes.byref(report),
                         ctypes.byref(error))
    text = _take(report)
    _check(status, error)
    return json.loads(text)


def _kernels_text(kernels):
    """``kernels`` as --kernels takes it: a string, or a list of library
    names and paths joined by commas."""
    if isinstance(kernels, (str, bytes, os.PathLike)):
        return os.fsencode(kernels)
    return b",".join(os.fsencode(item) for item in kernels)


def verify(src: Union[Path, Data], data: Iterable[Path] = (),
           runtime: Optional[str] = None,
           kernels: Union[str, Iterable[Union[str, Path]], None] = None
           ) -> Report:
    """Is an ExecuTorch program (or data file) sound, and what does the
    runtime do with it at load: the JSON report of ``emit-verify
    --format=json`` (schema emit-verify-1) as a dict, with ``findings``
    (each with ``severity``, ``check``, ``file``, ``offset``, ``path`` and
    ``message``) and ``runtime_load`` ("loads", "rejects" or "crashes").

    With ``runtime`` ("all", or one release such as "1.2"), also what each
    runtime release does with a program (``emit-verify --runtime``):
    ``runtimes``, one entry per release with ``release``, ``verdict``
    ("loads", "misreads", "rejects", "crashes") and ``reasons`` (each with
    ``feature``, ``first_release``, ``effect``, ``where``, ``source``), and
    the ``oldest`` and ``newest`` releases that load it.

    With ``kernels`` (``emit-verify --kernels``: kernel library names such
    as "portable" or "optimized", a selected_operators.yaml, files listing
    kernels; a comma-separated string or a list), each kernel call is
    checked against a build of them: ``kernel-missing`` findings, and
    ``kernels`` with the calls no kernel runs (``operator``,
    ``kernel_key``, ``method``, ``libraries`` that have it); with
    ``runtime`` too, each release's row says its own.

    ``src`` is a path or the bytes; ``data`` the paths of the data files
    (.ptd) the program loads with. A file with defects gives a report;
    :class:`EmitError` is raised only when a file cannot be read, or for a
    release emit does not know.

    Example::

        report = emit.verify("model.pte", data=["weights.ptd"])
        assert report["runtime_load"] == "loads", report["findings"]
        oldest = emit.verify("model.pte", runtime="all")["oldest"]
        missing = emit.verify("model.pte", kernels="portable")["kernels"]
    """
    if kernels is not None:
        build = _kernels_text(kernels)
        release = runtime.encode() if runtime is not None else None

        def on_kernels_file(path, paths, count, report, error):
            return _lib.emitVerifyKernelsFile(path, paths, count, release,
                                              build, report, error)

        def on_kernels_buffer(program, size, paths, count, report, error):
            return _lib.emitVerifyKernelsBuffer(program, size, paths, count,
                                                release, build, report, error)

        return _file_report(src, data, on_kernels_file, on_kernels_buffer)
    if runtime is None:
        return _file_report(src, data, _lib.emitVerifyFile,
                            _lib.emitVerifyBuffer)
    release = runtime.encode()

    def on_file(path, paths, count, report, error):
        return _lib.emitVerifyReleasesFile(path, paths, count, release,
                                           report, error)

    def on_buffer(program, size, paths, count, report, error):
        return _lib.emitVerifyReleasesBuffer(program, size, paths, count,
                                             release, report, error)

    return _file_report(src, data, on_file, on_buffer)


def selected_ops(programs: Union[Path, Iterable[Path]],
                 kernels: Union[str, Iterable[Union[str, Path]], None] = None,
                 runtime: Optional[str] = None) -> str:
    """The selected_operators.yaml of one or more programs, for a selective
    build of ExecuTorch's kernel libraries without PyTorch (``emit-verify
    --write-selected-ops``): every operator they call, each with every
    kernel key (dtype and dim order of each tensor argument) it is called
    with, in the format codegen/tools/gen_oplist.py writes. Its comments
    give, per kernel library (those ``kernels`` names; default every one),
    the operators it provides at release ``runtime`` (default main), as
    CMake's ``EXECUTORCH_SELECT_OPS_LIST`` takes them.

    Example::

        with open("selected_operators.yaml", "w") as f:
            f.write(emit.selected_ops(["encoder.pte", "decoder.pte"]))
    """
    paths, count = _paths(programs)
    yaml, error = _Buffer(), _Buffer()
    build = _kernels_text(kernels) if kernels is not None else None
    release = runtime.encode() if runtime is not None else None
    status = _lib.emitSelectedOps(paths, count, build, release,
                                  ctypes.byref(yaml), ctypes.byref(error))
    text = _take(yaml)
    _check(status, error)
    return text.decode() if isinstance(text, bytes) else text


@overload
def replan(src: Path, dst: Path, fast_memory: Optional[str] = None,
           alignment: int = 16) -> Report:
    ...


@overload
def replan(src: Data, dst: None = None, fast_memory: Optional[str] = None,
           alignment: int = 16) -> Tuple[bytes, Report]:
    ...


def replan(src, dst=None, fast_memory=None, alignment=16):
    """Re-plans every method's planned memory of an ExecuTorch program (a
    ``.pte``, or a bundled program ``.bpte``), as ``emit-translate
    --pte-to-pte --replan-memory`` does: tensors whose lifetimes do not meet
    share bytes, what shares on purpose (views, in-place results) stays
    together, no buffer grows and nothing else changes.

    ``replan(src, dst) -> dict``: from the file ``src`` to the file ``dst``
    (written all or nothing).
    ``replan(data) -> (bytes, dict)``: from a program in memory.

    ``fast_memory`` ("BYTES[,id=N][,order=accesses|peak]") adds a planned
    buffer of at most BYTES per method holding the tensors accessed most per
    byte (or the largest live at the peak); ``alignment`` is what each
    tensor keeps its offset modulo. The dict is the report (schema
    emit-replan-1): per method and buffer, ``bytes_before``,
    ``bytes_after`` and ``lower_bound``.

    Example::

        data, report = emit.replan(program.buffer)
        print(report["bytes_before"], "->", report["bytes_after"])
        emit.replan("model.pte", "model.small.pte", fast_memory="65536")
    """
    fast = fast_memory.encode() if fast_memory is not None else None
    report, error = _Buffer(), _Buffer()
    if isinstance(src, (bytes, bytearray, memoryview)):
        if dst is not None:
            raise TypeError("replan(data) returns the result; give no dst")
        data = _bytes_of(src)
        output = _Buffer()
        status = _lib.emitReplanBuffer(data, len(data), fast, alignment,
                                       ctypes.byref(output),
                                       ctypes.byref(report),
                                       ctypes.byref(error))
        result = _take(output)
        text = _take(report)
        _check(status, error)
        return result, json.loads(text)
    if dst is None:
        raise TypeError("replan(src, dst) needs a destination path")
    status = _lib.emitReplanFile(os.fsencode(src), os.fsencode(dst), fast,
                                 alignment, ctypes.byref(report),
                                 ctypes.byref(error))
    text = _take(report)
    _check(status, error)
    return json.loads(text)


def memory(src: Union[Path, Data], data: Iterable[Path] = ()) -> Report:
    """The memory an ExecuTorch program's methods need, and whether their
    memory plans are sound: the JSON report of ``emit-memory --format=json``
    (schema emit-memory-1) as a dict. Per method (``methods``): its
    ``planned_buffers`` (with ``peak_live_bytes``), the
    ``method_allocator_bytes`` loading it takes per target (``"64"``,
    ``"32"``), its planned ``tensors`` with their lifetimes, and
    ``findings`` (``memory-overlap``, ``memory-slack``, ...).

    ``src`` is a path or the bytes; ``data`` the paths of the data files
    (.ptd) the program loads with. A plan with defects gives a report;
    :class:`EmitError` is raised only when a file cannot be read.

    Example::

        report = emit.memory("model.pte")
        pool = max(m["method_allocator_bytes"]["32"]
                   for m in report["methods"])
    """
    return _file_report(src, data, _lib.emitMemoryFile,
                        _lib.emitMemoryBuffer)


def graph(src: Union[Path, Data], data: Iterable[Path] = (),
          profile: Optional[Path] = None) -> Report:
    """Every method of an ExecuTorch program as a graph: the JSON of
    ``emit-graph --format=json`` (schema emit-graph-2) as a dict. Per
    method (``methods``): its ``nodes`` (an instruction each, with ``id``,
    ``chain``, ``instruction``, ``kind``, ``name`` and the value ids it
    reads and writes, ``inputs`` and ``outputs``; a delegate call's
    ``delegate`` with its ``backend``, ``payload_bytes``, ``storage``,
    ``shared_with``, ``compile_specs`` and ``magic``; and a node per
    method input and output), its ``values`` (a tensor's ``dtype``,
    ``shape``, ``planned`` or ``constant`` place, ``first`` and ``last``
    instruction), and its ``fallback``: kernel calls by operator namespace
    against delegate calls by backend.

    ``src`` is a path or the bytes of a program (or bundle); ``data`` the
    data files (.ptd) its external constants are in; ``profile`` the ETDump
    of a run of it: each node's ``time``. Unknown delegates, operators or
    payloads are nodes with ``problems``; :class:`EmitError` is raised only
    when a file cannot be read.

    Example::

        graph = emit.graph("model.pte")
        for method in graph["methods"]:
            print(method["name"], method["fallback"]["by_namespace"])
    """
    paths, count = _paths(data)
    timed = os.fsencode(profile) if profile is not None else None
    report, error = _Buffer(), _Buffer()
    if isinstance(src, (bytes, bytearray, memoryview)):
        program = _bytes_of(src)
        status = _lib.emitGraphBuffer(program, len(program), paths, count,
                                      timed, ctypes.byref(report),
                                      ctypes.byref(error))
    else:
        status = _lib.emitGraphFile(os.fsencode(src), paths, count, timed,
                                    ctypes.byref(report), ctypes.byref(error))
    text = _take(report)
    _check(status, error)
    return json.loads(text)


def profile(etdump: Path, program: Optional[Path] = None,
            data: Iterable[Path] = (),
            debug_buffer: Optional[Path] = None,
            methods: Iterable[str] = (), in_order: bool = False,
            baseline: Optional[Tuple[Path, Path]] = None) -> Report:
    """Where a run's time went: the JSON report of ``emit-profile
    --format=json`` (schema emit-profile-1) as a dict. ``etdump`` is the
    ETDump the runtime wrote (.etdp); ``program`` the program (.pte or
    .bpte) that ran, ``data`` the data files (.ptd) it loaded with. With a
    program, per method (``methods``): its ``runs``, ``load_ns``, ``run``
    times, ``instructions`` (each with ``chain``, ``instruction``,
    ``kind``, ``name``, ``count``, ``total_ns``, ``p50_ns``, ...,
    ``share`` and ``operands``, a delegate's ``backend`` and
    ``payload_bytes``), ``by_operator`` and ``by_backend``; methods an
    ETDump cannot tell apart are one entry with their ``candidates``;
    blocks no method explains are in ``unmatched``. ``debug_buffer`` is the
    buffer ETDumpGen's data sink wrote logged tensors to: each
    instruction's ``outputs`` then has their ``stats``. Without a program,
    the events by name (``events``).

    ``methods`` names the methods the run executed (``--method``), and
    ``in_order`` says it executed them in that order (the program's,
    without ``methods``; ``--in-order``). ``baseline`` is an older run,
    ``(program, etdump)``, to compare with (``--baseline``): the report's
    ``baseline``.

    :class:`EmitError` is raised only when a file cannot be read (or a
    baseline program does not import).

    Example::

        report = emit.profile("run.etdp", "model.pte")
        for method in report["methods"]:
            print(method["name"], method["by_operator"][:3])
    """
    def optional(path):
        return os.fsencode(path) if path is not None else None
    paths, count = _paths(data)
    names = [methods] if isinstance(methods, str) else list(methods)
    method_array = (ctypes.c_char_p * max(1, len(names)))(
        *[name.encode() for name in names])
    old_program, old_etdump = baseline if baseline is not None else (None,
                                                                     None)
    request = _ProfileRequest(
        optional(program), os.fsencode(etdump), optional(debug_buffer), paths,
        count, method_array, len(names), 1 if in_order else 0,
        optional(old_program), optional(old_etdump))
    report, error = _Buffer(), _Buffer()
    status = _lib.emitProfile(ctypes.byref(request), ctypes.byref(report),
                              ctypes.byref(error))
    text = _take(report)
    _check(status, error)
    return json.loads(text)


def diff(old: Path, new: Path, old_data: Iterable[Path] = (),
         new_data: Iterable[Path] = (), graph: bool = False,
         methods: Optional[Dict[str, str]] = None) -> Report:
    """What changed between two ExecuTorch exports, layout aside: the JSON
    report of ``emit-diff --format=json`` (schema emit-diff-1) as a dict,
    with ``same_content``, ``by_kind`` (old and new bytes of each kind) and
    the ``methods``, ``delegates``, ``named_data``, ``operators``,
    ``constants`` and bundled programs' ``test_suites`` that differ.

    With ``graph=True``, the report of ``emit-diff --graph --format=json``
    (schema emit-graph-diff-1): each method pair's graphs matched node by
    node, the operators of delegate payloads included, with per pair the
    nodes ``added``, ``removed`` and ``changed`` (and what changed), every
    pair in ``matching``, the ``moves`` between the CPU and each backend and
    both ``fallback`` tables; ``methods`` maps an old method's name to the
    new one it is compared with (``--method``).

    ``old`` and ``new`` are paths of two programs (``.pte`` or ``.bpte``;
    or two data files, without ``graph``);
    ``old_data`` and ``new_data`` the data files (.ptd) each program loads
    with. :class:`EmitError` is raised when a file cannot be read or
    imported, or a program is compared with a data file.

    Example::

        report = emit.diff("old.pte", "new.pte")
        print(report["same_content"], report["methods"])
        nodes = emit.diff("old.pte", "new.pte", graph=True)
        print(nodes["methods"][0]["counts"])
    """
    old_paths, old_count = _paths(old_data)
    new_paths, new_count = _paths(new_data)
    report, error = _Buffer(), _Buffer()
    if graph:
        pairs = ["%s=%s" % item for item in (methods or {}).items()]
        pair_array, pair_count = _paths(pairs)
        status = _lib.emitGraphDiffFiles(
            os.fsencode(old), old_paths, old_count, os.fsencode(new),
            new_paths, new_count, pair_array, pair_count,
            ctypes.byref(report), ctypes.byref(error))
    elif methods:
        raise ValueError("methods= pairs methods of a graph diff: "
                         "pass graph=True")
    else:
        status = _lib.emitDiffFiles(os.fsencode(old), old_paths, old_count,
                                    os.fsencode(new), new_paths, new_count,
                                    ctypes.byref(report), ctypes.byref(error))
    text = _take(report)
    _check(status, error)
    return json.loads(text)


def link(inputs: Union[Path, Iterable[Path]], output: Optional[Path] = None,
         out_dir: Optional[Path] = None, data: Iterable[Path] = (),
         external_data: Optional[Path] = None,
         externalize_constants: Optional[int] = None,
         internalize: bool = False,
         max_data_file_bytes: Optional[int] = None,
         segment_alignment: Optional[int] = None,
         prefix_methods: bool = False) -> Report:
    """Links ExecuTorch programs and decides where their data lives, as
    ``emit-link`` does, writing every output or none; returns its JSON
    report (docs/DedupReport.md) as a dict.

    ``inputs`` are programs (.pte), ``data`` the data files (.ptd) they
    load with. ``output`` writes one program holding every method (``-o``);
    ``out_dir`` each program on its own. ``internalize=True`` (with
    ``output``) moves the data files' data into the program;
    ``external_data`` gathers the named data (and with
    ``externalize_constants=MIN_BYTES`` the named constants) into data
    files, split into ``NAME-1.ptd``, ``NAME-2.ptd``, ... of at most
    ``max_data_file_bytes`` each when given; ``segment_alignment`` starts
    every segment of every output at a multiple of it.

    Example, prefill and decode exported apart::

        emit.link(["prefill.pte", "decode.pte"], output="model.pte",
                  data=["prefill.ptd", "decode.ptd"], prefix_methods=True)
    """
    if isinstance(inputs, (str, bytes, os.PathLike)):
        inputs = [inputs]
    input_paths, input_count = _paths(inputs)
    data_paths, data_count = _paths(data)

    def path(value):
        return os.fsencode(value) if value is not None else None

    options = _LinkOptions(
        input_paths, input_count, data_paths, data_count, path(output),
        path(out_dir), path(external_data),
        -1 if externalize_constants is None else int(externalize_constants),
        int(bool(internalize)), int(bool(prefix_methods)),
        int(max_data_file_bytes or 0), int(segment_alignment or 0))
    report, error = _Buffer(), _Buffer()
    status = _lib.emitLinkFiles(ctypes.byref(options), ctypes.byref(report),
                                ctypes.byref(error))
    text = _take(report)
    _check(status, error)
    return json.loads(text)
