"""QNN context binaries behind their header, and QnnBackend entries' `qnn_compile_spec` options written by flatc in the layouts of ExecuTorch 0.7-1.0 and 1.1-1.4 (Inputs/qnn_options.fbs)."""
import json
import os
import struct
import subprocess

from backends.common import FLATC, INPUTS, OUT


def qnn(binary_size, binary):
    return (struct.pack("<I", 0x5678ABCD) + struct.pack("<q", 42) +
            struct.pack("<Q", binary_size) + b"\0" * 236 + binary)


def qnn_options(root, options):
    """A QnnExecuTorchOptions flatbuffer in the layout `root` of
    qnn_options.fbs, written by flatc as ExecuTorch's serializer does."""
    path = os.path.join(OUT, root + ".json")
    with open(path, "w") as out:
        json.dump(options, out)
    subprocess.run([FLATC, "--binary", "--root-type", root, "-o", OUT,
                    os.path.join(INPUTS, "qnn_options.fbs"),
                    path], check=True)
    with open(os.path.join(OUT, root + ".bin"), "rb") as data:
        return data.read()


def qnn_spec(root, soc=None, backend=None, **extra):
    """A `qnn_compile_spec` of the options `root`, with every field an
    export writes (the dataclass defaults) besides those given."""
    htp = {"max_sf_buf_size": 0, "performance_mode": 2, "precision": 1,
           "pd_session": 0, "use_conv_hmx": True, "use_fold_relu": True,
           "use_weight_sharing": True}
    if root == "OptionsV1_0":
        htp["skel_library_dir"] = ""
    options = {
        "soc_info": soc if soc is not None else {
            "soc_model": 57, "htp_info": {"htp_arch": 75,
                                          "vtcm_size_in_mb": 8}},
        "backend_options": backend if backend is not None else {
            "backend_type": 2, "htp_options": htp},
        "library_path": "", "log_level": 0, "profile_level": 0,
        "saver_output_dir": "saver_output",
        "op_package_options": {"op_package_infos": []}}
    if root == "OptionsV1_0":
        options["graph_name"] = ["forward"]
    options.update(extra)
    return [("qnn_compile_spec", qnn_options(root, options))]
