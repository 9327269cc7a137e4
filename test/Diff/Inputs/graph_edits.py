"""The model and the edits emit-diff --graph is checked on, and what each
edit must show, derived from the edit alone: shared by the lit suite's
writer (graph-pairs.py, flatc) and the local check's (ExecuTorch's own
serializer, scripts/local-checks/tools/graph_diff_pairs.py).

A model is a list of layers, each an operator (add, mul or linear) run on
the CPU as a kernel call or by XNNPACK (consecutive XNNPACK layers are one
delegate call). Layer k reads the layer before's output (the input x for
the first) and x, and writes its own, f32 [1, 16]; a linear layer's weight
[16, 16] is a constant. A writer numbers instructions in order and gives
each layer's node id: `iK`, or `iK/nJ` for operator J of the payload of
the call at instruction K.
"""
import copy
import json
import os

SHAPE = [1, 16]


def layer(op, where="cpu", dtype="FLOAT", shape=SHAPE, seed=0):
    return dict(op=op, where=where, dtype=dtype, shape=list(shape), seed=seed)


BASE = [layer("add"), layer("linear", seed=1), layer("mul"),
        layer("add", "xnn"), layer("linear", "xnn", seed=2), layer("mul", "xnn"),
        layer("add"), layer("linear", seed=3), layer("mul"), layer("add"),
        layer("mul"), layer("linear", seed=4)]


def calls(layers):
    """The layers as a program runs them, in order: ("cpu", layer) for a
    kernel call, ("xnn", [layers]) for one XNNPACK call running a run of
    consecutive XNNPACK layers."""
    k = 0
    while k < len(layers):
        if layers[k]["where"] != "xnn":
            yield "cpu", layers[k]
            k += 1
            continue
        group = []
        while k < len(layers) and layers[k]["where"] == "xnn":
            group.append(layers[k])
            k += 1
        yield "xnn", group


def weight(seed):
    """A linear layer's weight bytes: float32 [16, 16], distinct per seed."""
    return bytes((seed * 7 + i) % 251 for i in range(16 * 16 * 4))


def expectation_writer(out_dir):
    """An `expect` for edits(): writes OUT_DIR/<name>.expected.json, what
    check-graph-diff.py compares a report with."""
    def expect(name, **found):
        result = dict(added=[], removed=[], changed=[], moves=[],
                      methods=None)
        result.update(found)
        with open(os.path.join(out_dir, name + ".expected.json"), "w") as out:
            json.dump(result, out, indent=1)
    return expect


def edits(write, expect):
    """Writes the base model and each edit with `write(name, layers,
    method="forward")`, which returns the layers' node ids, and says with
    `expect(name, **found)` what each must show."""
    base = write("base", BASE)
    # Each edit, and what it must show, from the edit alone.
    expect("same")
    write("same", BASE)

    # Between a linear and a mul: a node unlike both (a mul after a mul
    # could as well be the old one).
    inserted = BASE[:8] + [layer("add")] + BASE[8:]
    ids = write("inserted", inserted)
    expect("inserted", added=[ids[8]])

    removed = BASE[:9] + BASE[10:]
    write("removed", removed)
    expect("removed", removed=[base[9]])

    replaced = copy.deepcopy(BASE)
    replaced[9]["op"] = "mul"  # add -> mul, same operands but alpha
    ids = write("replaced", replaced)
    expect("replaced", changed=[[base[9], ids[9], ["operator", "arguments"]]])

    # A tensor's dtype or shape: the node writing it and the one reading it.
    dtype = copy.deepcopy(BASE)
    dtype[6]["dtype"] = "HALF"
    ids = write("dtype", dtype)
    expect("dtype", changed=[[base[6], ids[6], ["dtype"]],
                             [base[7], ids[7], ["dtype"]]])

    shape = copy.deepcopy(BASE)
    shape[9]["shape"] = [2, 8]
    ids = write("shape", shape)
    expect("shape", changed=[[base[9], ids[9], ["shape"]],
                             [base[10], ids[10], ["shape"]]])

    constant = copy.deepcopy(BASE)
    constant[7]["seed"] = 9
    ids = write("constant", constant)
    expect("constant", changed=[[base[7], ids[7], ["constant_bytes"]]])

    # Inside a payload: a constant of XNNPACK's, one operator's dtype.
    xconstant = copy.deepcopy(BASE)
    xconstant[4]["seed"] = 9
    ids = write("payload-constant", xconstant)
    call = base[3].split("/")[0]
    expect("payload-constant",
           changed=[[call, call, ["payload"]],
                    [base[4], ids[4], ["constant_bytes"]]])

    # Layers 8-10 moved into XNNPACK (a new call), and 3-5 out of it.
    into = copy.deepcopy(BASE)
    for k in (8, 9, 10):
        into[k]["where"] = "xnn"
    ids = write("moved-into", into)
    expect("moved-into", added=[ids[8].split("/")[0]],
           changed=[[base[k], ids[k], ["backend"]] for k in (8, 9, 10)],
           moves=[["XnnpackBackend", 3, 0]])

    out = copy.deepcopy(BASE)
    for k in (3, 4, 5):
        out[k]["where"] = "cpu"
    ids = write("fell-back", out)
    expect("fell-back", removed=[base[3].split("/")[0]],
           changed=[[base[k], ids[k], ["backend"]] for k in (3, 4, 5)],
           moves=[["XnnpackBackend", 0, 3]])

    write("renamed", BASE, method="forward_v2")
    expect("renamed", methods=[["forward", "forward_v2"]])

    # Long runs of unchanged nodes (the page folds them), one edit at the
    # end.
    long = BASE + [layer("mul"), layer("add")] * 8
    write("long", long)
    ids = write("long-edited", long[:-1] + [layer("mul")])
    expect("long-edited", changed=[[ids[-1], ids[-1], ["operator",
                                                       "arguments"]]])
