# ===- emit_build_backend.py - Build emit's wheel (PEP 517) ---------------=== #
#
# Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
#
# The build backend pyproject.toml names: it builds the C++ with CMake
# (scripts/setup.sh, which installs the Debian packages it needs when they
# are missing) and packs the Python package, its C API library and every
# tool into one wheel. It needs nothing beyond Python's standard library,
# so that `pip install --no-build-isolation .` and `python3 -m build
# --wheel --no-isolation` work with no download.
#
# The build tree is `build/` in the source tree, or the one
# EMIT_BUILD_DIR (or the config setting `build-dir`) names; an existing
# tree is brought up to date, not rebuilt.
# ===----------------------------------------------------------------------=== #

import base64
import hashlib
import os
import re
import shutil
import stat
import subprocess
import sysconfig
import tempfile
import tomllib
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def _project():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]


def _tools():
    """The tools the wheel carries: its console scripts, each the tool of
    its name."""
    return sorted(_project()["scripts"])


def get_version():
    """emit's version, from the one place that sets it: the root
    CMakeLists.txt's project()."""
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        found = re.search(r"project\(emit\s+VERSION\s+([0-9.]+)", f.read())
    if not found:
        raise RuntimeError("no project(emit VERSION ...) in CMakeLists.txt")
    return found.group(1)


def _build_dir(config_settings):
    settings = config_settings or {}
    return os.path.abspath(settings.get("build-dir") or
                           os.environ.get("EMIT_BUILD_DIR") or
                           os.path.join(ROOT, "build"))


def _build(build_dir):
    """Brings `build_dir` up to date for the wheel's targets, configuring
    it first (through scripts/setup.sh) when it is not a build tree."""
    targets = ["EmitPythonPackage"] + _tools()
    if not os.path.exists(os.path.join(build_dir, "build.ninja")):
        env = dict(os.environ, EMIT_TARGETS=" ".join(targets))
        subprocess.run([os.path.join(ROOT, "scripts", "setup.sh"), build_dir],
                       check=True, env=env)
        return
    subprocess.run(["cmake", "--build", build_dir, "--target"] + targets,
                   check=True)


def _wheel_name():
    tag = "py3-none-" + re.sub(r"[-.]", "_", sysconfig.get_platform())
    return "emit-%s-%s.whl" % (get_version(), tag), tag


def _metadata():
    project = _project()
    lines = ["Metadata-Version: 2.1", "Name: emit",
             "Version: " + get_version(),
             "Summary: " + project["description"],
             "License: " + project["license"]["text"],
             "Requires-Python: " + project["requires-python"]]
    return "\n".join(lines) + "\n"


def _entry_points():
    scripts = _project()["scripts"]
    return "[console_scripts]\n" + "".join(
        "%s = %s\n" % (name, target) for name, target in sorted(scripts.items()))


def _dist_info(tag):
    """The files of the wheel's .dist-info folder but RECORD: name to
    text."""
    return {
        "METADATA": _metadata(),
        "WHEEL": "Wheel-Version: 1.0\nGenerator: emit_build_backend\n"
                 "Root-Is-Purelib: false\nTag: %s\n" % tag,
        "entry_points.txt": _entry_points(),
    }


def _stage(build_dir, stage):
    """Lays out the package as the wheel installs it: the package with its
    C API library in _lib/ and the tools, stripped, in _bin/."""
    package = os.path.join(stage, "emit")
    shutil.copytree(os.path.join(build_dir, "python_packages", "emit"),
                    package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(os.path.join(ROOT, "python", "emit", "py.typed"), package)
    os.makedirs(os.path.join(package, "_bin"))
    for tool in _tools():
        shutil.copy(os.path.join(build_dir, "bin", tool),
                    os.path.join(package, "_bin", tool))
    strip = shutil.which("strip")
    if strip:
        for folder in ("_bin", "_lib"):
            for name in os.listdir(os.path.join(package, folder)):
                subprocess.run([strip, "--strip-unneeded",
                                os.path.join(package, folder, name)],
                               check=True)


def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest())
    return "%s,sha256=%s,%d" % (name, digest.rstrip(b"=").decode(), len(data))


def _write_wheel(path, stage, dist_info, files):
    """Writes the staged files and the .dist-info ones into the wheel at
    `path`, RECORD last, in a fixed order."""
    record = []
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name in sorted(files):
            source = os.path.join(stage, name)
            with open(source, "rb") as f:
                data = f.read()
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            mode = os.stat(source).st_mode
            info.external_attr = (stat.S_IFREG | (mode & 0o777)) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
            record.append(_record_line(name, data))
        for name, text in sorted(dist_info.items()):
            data = text.encode()
            wheel.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data)
            record.append(_record_line(name, data))
        record_name = os.path.dirname(next(iter(dist_info))) + "/RECORD"
        record.append(record_name + ",,")
        wheel.writestr(zipfile.ZipInfo(record_name, (1980, 1, 1, 0, 0, 0)),
                       "\n".join(record) + "\n")


# ===----------------------------------------------------------------------=== #
# PEP 517 hooks
# ===----------------------------------------------------------------------=== #

def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory,
                                     config_settings=None):
    name = "emit-%s.dist-info" % get_version()
    folder = os.path.join(metadata_directory, name)
    os.makedirs(folder, exist_ok=True)
    for file, text in _dist_info(_wheel_name()[1]).items():
        with open(os.path.join(folder, file), "w") as f:
            f.write(text)
    return name


def build_wheel(wheel_directory, config_settings=None,
                metadata_directory=None):
    build_dir = _build_dir(config_settings)
    _build(build_dir)
    name, tag = _wheel_name()
    dist_info = "emit-%s.dist-info" % get_version()
    with tempfile.TemporaryDirectory() as stage:
        _stage(build_dir, stage)
        files = [os.path.relpath(os.path.join(folder, file), stage)
                 for folder, _, names in os.walk(stage) for file in names]
        _write_wheel(os.path.join(wheel_directory, name), stage,
                     {"%s/%s" % (dist_info, file): text
                      for file, text in _dist_info(tag).items()}, files)
    return name
