#!/usr/bin/env python3
"""Writes payloads.pte: a program whose methods each call one delegate, the
payloads built from their documented layouts, independently of emit's
decoders: XNNPACK graphs written by flatc from schema/xnnpack.fbs (every
operator the schema has, every kind of quantization, constants inline, in
the flatbuffer and by named key, and the empty key ExecuTorch's serializer
writes for a constant in the payload) with the XH00 header, QNN, Vulkan and
MPS headers, and each header or graph error a runtime refuses; QNN entries'
`qnn_compile_spec` options written by flatc in the layouts of ExecuTorch
0.7-1.0 and 1.1-1.4 (Inputs/qnn_options.fbs), and broken ones; Ethos-U
streams packed as arm_vela.py packs them, and broken ones.

  payloads.py FLATC SCHEMA_DIR OUT_DIR

Each backend's payloads are built in its own module (backends/); this
lists the cases, one method each, and writes the program.
"""
import json
import os
import struct
import subprocess

from backends.common import FLATC, OUT, SCHEMAS, flatbuffer, region_header
from backends.coreml import COREML_MODEL, COREML_PACKAGE, coreml_dir, coreml_file, coreml_index, coreml_program, coreml_tree, pb
from backends.ethos_u import vela_block, vela_stream
from backends.mediatek import neuropilot
from backends.mlx import mlx_payloads
from backends.mps import mps_payloads
from backends.neutron import neutron
from backends.qnn import qnn, qnn_options, qnn_spec
from backends.samsung import enn_spec
from backends.tosa import tosa_graph, tosa_graph_0_80
from backends.vulkan import vh00, vk_tensor, vulkan_graph
from backends.xnnpack import every_operator_graph, plain, small_graph, tensor, xh00


def id_payloads():
    """Backends known by their id, not a magic: Samsung (its compile spec),
    MediaTek, NXP Neutron, Core ML's file tree; and TOSA's payloads (MLX's:
    mlx_payloads)."""
    return [
        ("samsung", "EnnBackend", b"an ENN model", enn_spec(9955)),
        ("samsung_new_chipset", "EnnBackend", b"an ENN model",
         enn_spec(9999)),
        ("samsung_no_identifier", "EnnBackend", b"an ENN model",
         [("enn_compile_options", enn_spec(9965)[0][1][:4] + b"XXXX" +
           enn_spec(9965)[0][1][8:])]),
        ("samsung_garbage", "EnnBackend", b"an ENN model",
         [("enn_compile_options", b"\x40\0\0\0EETO")]),
        ("mediatek", "NeuropilotBackend", neuropilot(2, 1, b"N" * 40) +
         b"\0" * 3),
        ("mediatek_network_past", "NeuropilotBackend",
         neuropilot(2, 1, b"N" * 40, size=4096)),
        ("mediatek_short", "NeuropilotBackend", b"\1\2\0\0\0"),
        ("mediatek_version", "NeuropilotBackend",
         neuropilot(1, 1, b"N" * 8, version=2)),
        ("neutron", "NeutronBackend", neutron()),
        ("neutron_version_0", "NeutronBackend", neutron(1, 1, version=0)),
        ("neutron_short", "NeutronBackend", b"\1"),
        ("neutron_flags_past", "NeutronBackend", b"\x40\x40\1" + bytes(8)),
        ("neutron_no_microcode", "NeutronBackend",
         neutron(words={0: 0x12345678})),
        ("neutron_unknown_version", "NeutronBackend", neutron(version=7)),
        ("neutron_io_mismatch", "NeutronBackend", neutron(words={13: 3})),
        ("neutron_weights_past", "NeutronBackend",
         neutron(words={7: 1 << 20})),
        ("tosa", "TOSABackend", tosa_graph("tosa")),
        ("tosa_0_80", "TOSABackend", tosa_graph_0_80("tosa_0_80")),
        ("tosa_1_1", "TOSABackend", tosa_graph("tosa_1_1", 1, 1,
                                               software=True)),
        ("tosa_0_60", "TOSABackend", tosa_graph("tosa_0_60", 0, 60)),
        ("tosa_body", "TOSABackend", tosa_graph("tosa_body", body=True)),
        ("tosa_garbage", "TOSABackend", b"\x10\0\0\0TOSA" + b"\xff" * 24),
        ("coreml", "CoreMLBackend", coreml_tree(COREML_MODEL)),
        ("coreml_package", "CoreMLBackend", coreml_tree(COREML_PACKAGE)),
        ("coreml_package_malformed", "CoreMLBackend", coreml_tree({
            "model.mlpackage": {"Data": {"com.apple.CoreML": {
                "model.mlmodel": coreml_program()[:-9]}}}})),
        ("coreml_package_not_program", "CoreMLBackend", coreml_tree({
            "model.mlpackage": {"Data": {"com.apple.CoreML": {
                "model.mlmodel": pb(1, 4) + pb(500, b"")}}}})),
        ("coreml_no_index", "CoreMLBackend", b"model bytes, no index"),
        ("coreml_unclosed", "CoreMLBackend", b'xx"nodes":[]{' + bytes(3)),
        ("coreml_not_json", "CoreMLBackend", b"}not json{"),
        ("coreml_file_past", "CoreMLBackend", coreml_index(
            [coreml_file("model.mil", 16, 4096),
             coreml_dir("root", {"model.mil": 0})], b"m" * 32)),
        ("coreml_child_after", "CoreMLBackend", coreml_index(
            [coreml_file("a", 0, 4),
             coreml_dir("root", {"a": 0, "itself": 1, "later": 5})],
            b"aaaa")),
        ("coreml_file_root", "CoreMLBackend", coreml_index(
            [coreml_dir("root", {}), coreml_file("a", 0, 4)], b"aaaa")),
        ("coreml_shared_child", "CoreMLBackend", coreml_index(
            [coreml_file("w.bin", 0, 4), coreml_dir("a", {"w.bin": 0}),
             coreml_dir("root", {"a": 1, "b": 1})], b"wwww")),
    ]


def payloads():
    every = flatbuffer("every", every_operator_graph())
    small = flatbuffer("small", small_graph())
    missing = flatbuffer("missing", small_graph(xnodes=[
        {"xnode_union_type": "XNNAdd",
         "xnode_union": {"input1_id": 0, "input2_id": 99, "output_id": 2}}]))
    far = flatbuffer("far", small_graph(constant_data=[
        {"offset": 0, "size": 0}, {"offset": 8, "size": 16}]))
    empty_key = flatbuffer("empty_key", small_graph(constant_data=[
        {"offset": 0, "size": 0},
        {"offset": 0, "size": 16, "named_key": ""}]))
    in_flatbuffer = flatbuffer("inline", small_graph(
        constant_data=[], constant_buffer=[{}, {"storage": [7] * 24}]))
    garbage = b"\x10\0\0\0XN01" + b"\xff" * 24
    renamed = b"\x10\0\0\0XZ99" + small[8:]
    vk = flatbuffer("vulkan", vulkan_graph(), "vulkan.fbs")
    vk_far = flatbuffer("vulkan_far", vulkan_graph(constants=[
        {"offset": 8, "length": 16}]), "vulkan.fbs")
    # Union types that name a table and hold none (the verifier lets them).
    vk_empty = flatbuffer("vulkan_empty_union", vulkan_graph(
        values=[vk_tensor(), {"value_type": "Int"}, {"value_type": "VkTensor"},
                vk_tensor()],
        chain=[{"node_id": 0, "name": "aten.add.Tensor",
                "args": [0, 2, 1, 3]}],
        input_ids=[0], output_ids=[3], constants=[]), "vulkan.fbs")
    no_params = flatbuffer("no_params", small_graph(xvalues=[
        plain(tensor(0, flags=1)),
        {"xvalue_union_type": "XNNQuantizedTensorValue",
         "xvalue_union": {"tensor_value": tensor(1, dtype="qint8"),
                          "quant_params_type": "PerTensorQuant"}},
        plain(tensor(2, flags=2, external=1))]))
    vk_missing = flatbuffer("vulkan_missing", vulkan_graph(
        values=[vk_tensor(constant=3), vk_tensor()],
        chain=[{"node_id": 0, "name": "aten.abs.default", "args": [0, 99, 1]}],
        output_ids=[1]), "vulkan.fbs")
    return [
        ("xnnpack_every_operator", "XnnpackBackend",
         xh00(every, bytes(range(16)))),
        ("xnnpack_no_header", "XnnpackBackend", in_flatbuffer),
        ("xnnpack_short_header", "XnnpackBackend", b"\0\0\0\0XH00" + b"\0" * 10),
        ("xnnpack_graph_past_payload", "XnnpackBackend",
         xh00(small, b"\1" * 16, graph_size=4096)),
        ("xnnpack_constants_past_payload", "XnnpackBackend",
         xh00(small, b"\1" * 16, constants_size=1 << 40)),
        ("xnnpack_overlap", "XnnpackBackend",
         xh00(small, b"\1" * 16, constants_at=40, constants_size=16)),
        ("xnnpack_small_graph", "XnnpackBackend",
         xh00(small, b"\1" * 16, graph_size=4)),
        ("xnnpack_identifier", "XnnpackBackend", xh00(renamed, b"\1" * 16)),
        ("xnnpack_garbage", "XnnpackBackend", xh00(garbage, b"")),
        ("xnnpack_missing_value", "XnnpackBackend", xh00(missing, b"\1" * 16)),
        ("xnnpack_constant_far", "XnnpackBackend", xh00(far, b"\1" * 16)),
        ("xnnpack_empty_key", "XnnpackBackend", xh00(empty_key, b"\1" * 16)),
        ("qnn", "QnnBackend", qnn(100, b"\2" * 100) + b"\0" * 12,
         qnn_spec("OptionsV1_4", log_level=2)),
        ("qnn_past", "QnnBackend", qnn(4096, b"\2" * 100)),
        ("qnn_short", "QnnBackend", struct.pack("<I", 0x5678ABCD) + b"\0" * 40),
        # Constant size 0: the rest of the payload.
        ("vulkan", "VulkanBackend",
         vh00(vk, bytes(range(16)), constants_size=0)),
        ("vulkan_no_header", "VulkanBackend", vk),
        ("vulkan_short_header", "VulkanBackend", b"\0\0\0\0VH00" + b"\0" * 12),
        ("vulkan_header_size", "VulkanBackend",
         vh00(vk, b"\1" * 16, header_size=20)),
        ("vulkan_graph_in_header", "VulkanBackend",
         vh00(vk, b"\1" * 16, graph_at=24)),
        ("vulkan_constants_in_graph", "VulkanBackend",
         vh00(vk, b"\1" * 16, constants_at=40, constants_size=16)),
        ("vulkan_constant_far", "VulkanBackend", vh00(vk_far, b"\1" * 16)),
        ("vulkan_missing_value", "VulkanBackend", vh00(vk_missing, b"")),
        ("vulkan_empty_union", "VulkanBackend", vh00(vk_empty, b"")),
        ("xnnpack_no_quant_params", "XnnpackBackend",
         xh00(no_params, b"\1" * 16)),
        ("vulkan_garbage", "VulkanBackend",
         vh00(b"\x10\0\0\0VK00" + b"\xff" * 24, b"")),
        ("mps", "MPSBackend", region_header(b"MP00", 24, (24, 8), (8, 8)) +
         b"\3" * 8),
        ("opaque", "SomeNewBackend", b"not a known payload"),
        # The same settings in the layout of 0.7 to 1.0, read the same.
        ("qnn_spec_1_0", "QnnBackend", qnn(100, b"\2" * 100),
         qnn_spec("OptionsV1_0")),
        ("qnn_spec_gpu", "QnnBackend", qnn(100, b"\2" * 100),
         qnn_spec("OptionsV1_4", soc={"soc_model": 1234, "htp_info": {}},
                  backend={"backend_type": 1,
                           "gpu_options": {"precision": 1}})),
        ("qnn_spec_no_soc", "QnnBackend", qnn(100, b"\2" * 100),
         [("qnn_compile_spec", qnn_options("OptionsV1_4", {
             "backend_options": {"backend_type": 2}}))]),
        ("qnn_spec_garbage", "QnnBackend", qnn(100, b"\2" * 100),
         [("other_key", b"\1\2"), ("qnn_compile_spec", b"\x40" + b"\0" * 7)]),
        ("ethos_u", "EthosUBackend", vela_stream()),
        # Up to 0.6: 4-D shapes; the weights' block a key into named data.
        ("ethos_u_4d_external", "EthosUBackend", vela_stream(
            dims=4, weights=vela_block(b"weight_data", b"ab" * 32, 1))),
        ("ethos_u_bad_command", "EthosUBackend",
         vela_stream(cmd=b"XXXX" + bytes(12))),
        ("ethos_u_no_end", "EthosUBackend", vela_stream(end=False)),
        ("ethos_u_unknown_block", "EthosUBackend",
         vela_stream(extra=[vela_block(b"mystery", b"?")])),
        ("ethos_u_block_past", "EthosUBackend",
         vela_stream(end=False) + b"vela_end_stream\0" +
         struct.pack("<I", 4096) + bytes(12)),
        ("ethos_u_short_key", "EthosUBackend", vela_stream(
            weights=vela_block(b"weight_data", b"k" * 10, 1))),
        ("ethos_u_trailing", "EthosUBackend", vela_stream() + bytes(32)),
    ] + mps_payloads() + mlx_payloads() + id_payloads() + [
        # Last, so that the cases above keep their inline indices.
        ("ethos_u_scratch_buffer", "EthosUBackend", vela_stream(
            dims=4, scratch=vela_block(b"scratch_data", bytes(48))))]


def program(cases):
    plans, data = [], []
    for index, (name, backend, payload, *specs) in enumerate(cases):
        data.append({"data": list(payload)})
        plans.append({
            "name": name,
            "values": [{"val_type": "Tensor", "val": {
                "scalar_type": "FLOAT", "sizes": [1, 4], "dim_order": [0, 1],
                "allocation_info": {"memory_id": 1, "memory_offset_low": 0}}}],
            "inputs": [0], "outputs": [0],
            "chains": [{"instructions": [{
                "instr_args_type": "DelegateCall",
                "instr_args": {"delegate_index": 0, "args": [0]}}]}],
            "operators": [],
            "delegates": [{"id": backend, "compile_specs": [
                {"key": key, "value": list(value)}
                for key, value in (specs[0] if specs else [])],
                           "processed": {"location": "INLINE",
                                         "index": index}}],
            "non_const_buffer_sizes": [0, 16]})
    return {"version": 0, "execution_plan": plans,
            "backend_delegate_data": data, "segments": []}


def mixed(cases):
    """A method of kernel calls between delegate calls: an XNNPACK payload
    called twice through two entries that differ only in a compile spec
    (its graph's operators run twice, its graph is one), one no decoder
    knows."""
    def data(name):
        return [case[0] for case in cases].index(name)
    kernel = lambda op: {"instr_args_type": "KernelCall",
                         "instr_args": {"op_index": op, "args": [0, 0, 0]}}
    call = lambda entry: {"instr_args_type": "DelegateCall",
                          "instr_args": {"delegate_index": entry,
                                         "args": [0]}}
    entry = lambda backend, name, specs=(): {
        "id": backend, "compile_specs": [
            {"key": key, "value": list(value)} for key, value in specs],
        "processed": {"location": "INLINE", "index": data(name)}}
    return {
        "name": "mixed",
        "values": [{"val_type": "Tensor", "val": {
            "scalar_type": "FLOAT", "sizes": [1, 4], "dim_order": [0, 1],
            "allocation_info": {"memory_id": 1, "memory_offset_low": 0}}}],
        "inputs": [0], "outputs": [0],
        "chains": [{"instructions": [
            kernel(0), call(0), kernel(1), call(2), kernel(0), call(1),
            kernel(2)]}],
        "operators": [{"name": "aten::add", "overload": "out"},
                      {"name": "aten::mul", "overload": "out"},
                      {"name": "my_ops::gather", "overload": ""}],
        "delegates": [entry("XnnpackBackend", "xnnpack_no_header"),
                      entry("SomeNewBackend", "opaque"),
                      entry("XnnpackBackend", "xnnpack_no_header",
                            [("workspace_sharing", b"\x01")])],
        "non_const_buffer_sizes": [0, 16]}


def main():
    path = os.path.join(OUT, "payloads.json")
    cases = payloads()
    plan = program(cases)
    plan["execution_plan"].append(mixed(cases))
    with open(path, "w") as out:
        json.dump(plan, out)
    subprocess.run([FLATC, "--binary", "-o", OUT,
                    os.path.join(SCHEMAS, "program.fbs"), path], check=True)


main()
