//===- GraphFormat.cpp - How emit-graph's formats name things -------------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "GraphFormat.h"

#include "llvm/ADT/StringExtras.h"

using namespace emit;
using namespace emit::graph;

std::string graph::getDtypeName(const ValueInfo &value) {
  return value.dtype ? et::stringifyScalarType(*value.dtype).str()
                     : std::to_string(value.rawDtype);
}

StringRef graph::getConstantPlaceName(ConstantPlace place) {
  switch (place) {
  case ConstantPlace::ConstantSegment:
    return "constant_segment";
  case ConstantPlace::ConstantBuffer:
    return "constant_buffer";
  case ConstantPlace::External:
    return "external";
  }
  llvm_unreachable("unknown constant place");
}

std::string graph::describeValue(const ValueInfo &value) {
  if (value.kind != ValueKind::Tensor)
    return getValueKindName(value.kind).str();
  std::string text = getDtypeName(value) + "[";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(value.shape, os);
  os << "]";
  return text;
}

std::string graph::describeDecoded(const delegate::DecodedValue &value) {
  std::string text = value.dtype + "[";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(value.shape, os);
  os << "]";
  if (!value.quant.empty())
    os << " " << value.quant;
  return text;
}

std::vector<std::optional<NodeTime>>
graph::sumPayloadNodeTimes(const DelegateInfo &info, size_t nodes) {
  std::vector<std::optional<NodeTime>> times(nodes);
  for (const DelegateEvent &event : info.ownEvents) {
    if (!event.payloadNode || *event.payloadNode >= nodes)
      continue;
    std::optional<NodeTime> &time = times[*event.payloadNode];
    if (!time)
      time = event.time;
    else
      time = NodeTime{std::max(time->count, event.time.count),
                      time->totalNs + event.time.totalNs,
                      time->p50Ns + event.time.p50Ns};
  }
  return times;
}

std::string graph::describeNamedPart(const NamedPartInfo &part) {
  std::string text = "'" + part.part.key + "' (";
  if (part.source.empty())
    text += "in no file given";
  else
    text += part.source;
  if (part.bytes)
    text += ", " + std::to_string(*part.bytes) + " B";
  if (!part.part.required)
    text += ", optional";
  return text + ")";
}
