"""Ethos-U command streams packed as arm_vela.py packs them."""
import struct


def vela_block(name, data, external=0):
    """An Ethos-U stream block as arm_vela.py packs one: a 16-byte name, the
    data's size, the external flag, reserved bytes, the data padded to 16."""
    header = name.ljust(16, b"\0") + struct.pack("<IB", len(data), external)
    return header + b"\0" * 11 + data + b"\0" * (-len(data) % 16)


def vela_ios(dims, *tensors):
    """An inputs or outputs block: a count, then each tensor's shape (padded
    to `dims`), element size, offset and region."""
    data = struct.pack("<i", len(tensors))
    for shape, elem_size in tensors:
        shape = [1] * (dims - len(shape)) + list(shape)
        data += struct.pack("<%di" % (dims + 3), *shape, elem_size, 0, 1)
    return data


def vela_stream(dims=6, cmd=b"COP1" + bytes(28), weights=None, extra=(),
                end=True, scratch=None):
    """A vela_bin_stream; `scratch` the scratch buffer's block as 0.4 to
    0.6 packed it (else the scratch size, as 0.7 on do)."""
    blocks = [vela_block(b"vela_bin_stream", b""),
              vela_block(b"cmd_data", cmd),
              weights or vela_block(b"weight_data", bytes(range(100))),
              scratch or vela_block(b"scratch_size", struct.pack("<I", 4096)),
              vela_block(b"inputs", vela_ios(dims, ((1, 3, 8, 8), 1))),
              vela_block(b"outputs", vela_ios(dims, ((1, 10), 1),
                                              ((1, 1), 4)))]
    blocks += list(extra)
    if end:
        blocks.append(vela_block(b"vela_end_stream", b""))
    return b"".join(blocks)
