"""Neutron (NXP) payloads by their header."""
import struct

from backends.common import pad16


def neutron(inputs=2, outputs=1, version=1, words=None, weights=b"w" * 20,
            kernels=b"k" * 8):
    """A NeutronBackend payload as NXP's PayloadComposer packs one: byte
    flags (counts, a format and an index per input and output, the payload
    version), then microcode, weights and kernels, each padded to 16. The
    microcode is its 64-byte header of words (magic, sizes, scratch, counts
    where `version` places them) and 8 bytes of code; `words` overrides."""
    formats = [1] * inputs + [0] * outputs  # inputs channels last
    flags = [inputs, outputs, inputs] + formats
    flags += list(range(inputs)) + list(range(outputs)) + [version]
    code = [0] * 16
    code[0], code[6], code[7], code[9] = 0x64434D6E, 72, len(weights), 4096
    if version == 1:
        code[10], code[11], code[13], code[14] = 0x80000100, 64, inputs, outputs
    else:
        code[11], code[12] = inputs, outputs
    for index, value in (words or {}).items():
        code[index] = value
    microcode = struct.pack("<16I", *code) + b"c" * 8
    return b"".join(pad16(part) for part in
                    (bytes(flags), microcode, weights, kernels))
