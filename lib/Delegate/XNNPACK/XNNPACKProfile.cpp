//===- XNNPACKProfile.cpp - XNNPACK's own events joined to its xnodes -----===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// With an event tracer, an XNNPACK delegate call logs one event per
// operator of its XNNPACK runtime (backends/xnnpack/runtime/profiling/
// XNNProfiler.cpp): the operator's name as XNNPACK gives it
// (`Convolution (NHWC, F32) IGEMM`) and its count so far among operators
// of that name (`... #2`), in the order the operators run. XNNPACK creates
// its operators in xnode order, one per xnode (a concatenation one copy
// per input), so the k-th event of an operator family (the name before its
// layout: `Convolution` of both `... IGEMM` and `... DWCONV`) times the
// k-th xnode that runs as that family. XNNPACK names families two ways: one per
// operation (`Add`) up to early 2025, then `Binary Elementwise` and
// `Unary Elementwise` for all of them; an xnode is known by both. A family
// whose events and xnodes differ in number (XNNPACK fused a clamp into the
// convolution before it, or runs an operator no xnode names) is not
// joined: an event is only ever placed where the order says it belongs.
//
//===----------------------------------------------------------------------===//

#include "PayloadLayout.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace emit;
using namespace emit::delegate;

namespace {
/// How an xnode runs: the families of the operators XNNPACK creates for
/// it (lower case), and how many.
struct RuntimeOperators {
  SmallVector<StringRef, 2> families;
  unsigned count = 1;
};
} // namespace

static constexpr StringRef kBinary = "binary elementwise",
                           kUnary = "unary elementwise";

/// The operators XNNPACK runs `op` (an xnode's operator, `Conv2d`) as.
static RuntimeOperators getRuntimeOperators(StringRef op) {
  if (op.consume_front("Concatenate")) {
    unsigned inputs = 0;
    return {{"copy"}, op.getAsInteger(10, inputs) ? 1 : inputs};
  }
  StringRef binary = llvm::StringSwitch<StringRef>(op)
                         .Case("Add", "add")
                         .Case("Subtract", "subtract")
                         .Case("Multiply", "multiply")
                         .Case("Div", "divide")
                         .Case("Minimum", "minimum")
                         .Case("Maximum", "maximum")
                         .Case("PReLU", "prelu")
                         .Default("");
  if (!binary.empty())
    return {{binary, kBinary}};
  StringRef unary = llvm::StringSwitch<StringRef>(op)
                        .Case("Abs", "abs")
                        .Case("Ceiling", "ceiling")
                        .Case("Clamp", "clamp")
                        .Case("Convert", "convert")
                        .Case("Cos", "cosine")
                        .Case("ELU", "elu")
                        .Case("Exp", "exp")
                        .Case("Floor", "floor")
                        .Case("Gelu", "gelu")
                        .Case("Hardswish", "hardswish")
                        .Case("LeakyReLU", "leaky relu")
                        .Case("Log", "log")
                        .Case("Negate", "negate")
                        .Case("ReciprocalSquareRoot", "reciprocal square root")
                        .Case("Sigmoid", "sigmoid")
                        .Case("Sin", "sine")
                        .Case("Square", "square")
                        .Case("SquareRoot", "square root")
                        .Case("Tanh", "tanh")
                        .Default("");
  if (!unary.empty())
    return {{unary, kUnary}};
  if (op == "FullyConnected")
    return {{"fully connected", "dynamic fully connected"}};
  if (op == "GlobalAvgPooling2d")
    return {{"global average pooling", "mean"}};
  StringRef other =
      llvm::StringSwitch<StringRef>(op)
          .Case("Conv2d", "convolution")
          .Case("DepthwiseConv2d", "convolution")
          .Case("ConvTranspose2d", "deconvolution")
          .Case("BatchMatrixMultiply", "batch matrix multiply")
          .Case("Softmax", "softmax")
          .Case("StaticTranspose", "transpose")
          .Case("StaticResizeBilinear2D", "resize bilinear")
          .Case("StaticConstantPad", "constant pad")
          .Case("AvgPooling2d", "average pooling")
          .Case("MaxPooling2d", "max pooling")
          .Case("ArgMaxPooling2d", "argmax pooling")
          .Case("StaticReshape", "copy")
          .Case("Copy", "copy")
          .Case("StaticSlice", "slice")
          .Case("ScaledDotProductAttention", "scaled dot-product attention")
          .Default("");
  if (other.empty())
    return {{}, 0};
  return {{other}};
}

namespace {
/// An event's name taken apart: `Convolution (NHWC, F32) IGEMM #2` is the
/// 2nd operator named `Convolution (NHWC, F32) IGEMM`, of family
/// `convolution`.
struct EventName {
  StringRef op;
  unsigned ordinal = 0;
  std::string family;
};
} // namespace

static std::optional<EventName> parseEventName(StringRef name) {
  EventName parsed;
  StringRef count;
  std::tie(parsed.op, count) = name.rsplit(" #");
  if (count.getAsInteger(10, parsed.ordinal) || parsed.ordinal == 0)
    return std::nullopt;
  parsed.family = parsed.op.split(" (").first.trim().lower();
  return parsed;
}

std::vector<std::optional<uint32_t>>
delegate::joinXNNPACKEvents(const DecodedGraph &graph,
                            ArrayRef<std::string> names) {
  std::vector<std::optional<uint32_t>> joined(names.size());
  // Per family, its events (positions in `names`) in the order logged; a
  // family whose numbering is not XNNPACK's (each name counted 1, 2, ...
  // in that order) is left out.
  llvm::StringMap<std::vector<size_t>> events;
  llvm::StringMap<unsigned> seen;
  llvm::StringSet<> misnumbered;
  for (auto [index, name] : llvm::enumerate(names)) {
    std::optional<EventName> parsed = parseEventName(name);
    if (!parsed)
      continue;
    if (parsed->ordinal != ++seen[parsed->op])
      misnumbered.insert(parsed->family);
    events[parsed->family].push_back(index);
  }
  // Per family, the xnodes running as it, in creation order, each as often
  // as it creates operators.
  llvm::StringMap<std::vector<uint32_t>> slots;
  for (auto [index, node] : llvm::enumerate(graph.nodes)) {
    RuntimeOperators runs = getRuntimeOperators(node.op);
    for (StringRef family : runs.families)
      if (events.count(family))
        slots[family].insert(slots[family].end(), runs.count, uint32_t(index));
  }
  for (const auto &entry : events) {
    const std::vector<size_t> &logged = entry.getValue();
    const std::vector<uint32_t> &nodes = slots[entry.getKey()];
    if (nodes.size() != logged.size() || misnumbered.contains(entry.getKey()))
      continue;
    for (auto [event, node] : llvm::zip_equal(logged, nodes))
      joined[event] = node;
  }
  return joined;
}
