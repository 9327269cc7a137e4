"""NeuroPilot (MediaTek) payloads by their header."""
import struct


def neuropilot(inputs, outputs, network, version=1, size=None):
    """A NeuropilotBackend payload as MediaTek's preprocess packs one: the
    "<BIII" header (version, input and output counts, the network's size)
    and the compiled network."""
    return struct.pack("<BIII", version, inputs, outputs,
                       len(network) if size is None else size) + network
