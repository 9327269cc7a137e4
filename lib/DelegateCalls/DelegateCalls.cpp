//===- DelegateCalls.cpp - A program's delegate calls, as their payloads say
//===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/DelegateCalls/DelegateCalls.h"

#include "emit/File/ProgramModel.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"

using namespace emit;
using namespace emit::delegate;

//===----------------------------------------------------------------------===//
// DelegateCalls
//===----------------------------------------------------------------------===//

DelegateCalls::DelegateCalls(const ProgramModel &model,
                             ArrayRef<const CheckedFile *> dataFiles)
    : model(model), keys(model.getFile(), dataFiles) {
  for (const MethodModel &method : model.getMethods())
    for (auto [index, delegate] : llvm::enumerate(method.getDelegates()))
      users[{delegate.inSegment, delegate.dataIndex}].push_back(
          (method.getName() + "#" + Twine(index)).str());
}

std::shared_ptr<const DecodedPayload>
DelegateCalls::decode(const DelegateModel &entry) {
  std::vector<std::pair<StringRef, StringRef>> specs;
  for (const CompileSpecModel &spec : entry.compileSpecs)
    specs.push_back({spec.key, spec.value});
  PayloadInput input{entry.backend, model.getPayload(entry)};
  input.compileSpecs = specs;
  // Its decoder, found once per place (the payload's first bytes read
  // once), and the keys it reads.
  const PayloadDecoder *decoder = findDecoder(entry, input);
  ArrayRef<StringRef> keysRead =
      decoder ? decoder->getCompileSpecKeysRead(input) : ArrayRef<StringRef>();
  std::string specKey;
  for (const auto &[key, value] : specs)
    if (llvm::is_contained(keysRead, key))
      specKey +=
          (Twine(key.size()) + ":" + key + Twine(value.size()) + ":" + value)
              .str();
  auto &decoded =
      payloads[{entry.inSegment, entry.dataIndex, std::move(specKey)}];
  if (!decoded)
    decoded = std::make_shared<const DecodedPayload>(
        decodePayloadWith(decoder, input));
  return decoded;
}

std::vector<std::string> DelegateCalls::getSharers(const DelegateModel &entry,
                                                   StringRef self) const {
  std::vector<std::string> others;
  auto it = users.find({entry.inSegment, entry.dataIndex});
  if (it != users.end())
    for (const std::string &user : it->second)
      if (user != self)
        others.push_back(user);
  return others;
}

const PayloadDecoder *DelegateCalls::findDecoder(const DelegateModel &entry,
                                                 const PayloadInput &input) {
  auto [place, added] =
      decoders.try_emplace({entry.inSegment, entry.dataIndex});
  if (added)
    place->second = findPayloadDecoder(input);
  return place->second;
}

std::vector<const CallArguments *>
DelegateCalls::getCallArguments(const MethodModel &method) {
  std::vector<const CallArguments *> arguments;
  for (const DelegateModel &entry : method.getDelegates()) {
    // A payload whose decoder says nothing of a call's arguments is not
    // decoded for them: a view that asks only this reads no other bytes.
    const PayloadDecoder *decoder =
        findDecoder(entry, {entry.backend, model.getPayload(entry)});
    if (!decoder || !decoder->readsCallArguments()) {
      arguments.push_back(nullptr);
      continue;
    }
    std::shared_ptr<const DecodedPayload> payload = decode(entry);
    arguments.push_back(payload->arguments ? &*payload->arguments : nullptr);
  }
  return arguments;
}

std::vector<MissingKey>
DelegateCalls::findMissingKeys(const DecodedPayload &payload) const {
  std::vector<MissingKey> missing;
  llvm::StringSet<> seen;
  if (payload.graph)
    for (const DecodedValue &value : payload.graph->values)
      if (value.namedKey && !keys.lookupForBackend(*value.namedKey) &&
          seen.insert(*value.namedKey).second)
        missing.push_back(
            {*value.namedKey,
             "value " + std::to_string(value.id) + "'s constant"});
  for (const NamedPart &part : payload.namedParts)
    if (part.required && !keys.lookupForBackend(part.key) &&
        seen.insert(part.key).second)
      missing.push_back({part.key, "its " + part.name});
  return missing;
}
