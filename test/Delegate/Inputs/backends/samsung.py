"""EnnBackend entries' `enn_compile_options`, written by flatc."""
import json
import os
import subprocess

from backends.common import FLATC, INPUTS, OUT


def enn_spec(chipset):
    """An `enn_compile_options` for `chipset`, written by flatc from JSON as
    Samsung's gen_samsung_backend_compile_spec writes one."""
    path = os.path.join(OUT, "enn_options.json")
    with open(path, "w") as out:
        json.dump({"chipset": chipset}, out)
    subprocess.run([FLATC, "--binary", "-o", OUT,
                    os.path.join(INPUTS, "enn_options.fbs"),
                    path], check=True)
    with open(os.path.join(OUT, "enn_options.eeto"), "rb") as data:
        return [("enn_compile_options", data.read())]
