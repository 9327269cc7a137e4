//===- DelegateCalls.cpp - A program's delegate calls, as their payloads say
//===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/DelegateCalls/DelegateCalls.h"

#include "emit/File/DataFile.h"
#include "emit/File/ProgramFile.h"
#include "emit/File/ProgramModel.h"
#include "emit/File/flat_tensor_generated.h"
#include "emit/File/program_generated.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"

using namespace emit;
using namespace emit::delegate;
namespace fb = executorch_flatbuffer;

//===----------------------------------------------------------------------===//
// KeySources
//===----------------------------------------------------------------------===//

KeySources::KeySources(const ProgramModel &model,
                       ArrayRef<const CheckedFile *> files) {
  const fb::Program &program = *model.getFile().getProgram();
  if (const auto *named = program.named_data())
    for (const fb::NamedData *entry : *named)
      add(*entry, "program", program.segments());
  for (const CheckedFile *file : files) {
    names.push_back(file->getName().str());
    const auto *data = dyn_cast<DataFile>(file);
    if (!data || !data->getFlatTensor() || !data->getFlatTensor()->named_data())
      continue;
    for (const auto *entry : *data->getFlatTensor()->named_data())
      add(*entry, data->getName(), data->getFlatTensor()->segments());
  }
}

/// Adds `entry` of `file`, the first file that has its key; its bytes those
/// of its segment, where `segments` has it.
template <typename Entry, typename Segments>
void KeySources::add(const Entry &entry, StringRef file,
                     const Segments *segments) {
  if (!entry.key())
    return;
  Source source{file.str(), std::nullopt};
  if (segments && entry.segment_index() < segments->size())
    source.bytes = segments->Get(entry.segment_index())->size();
  sources.try_emplace(entry.key()->string_view(), std::move(source));
}

StringRef KeySources::lookup(StringRef key) const {
  auto it = sources.find(key);
  return it == sources.end() ? StringRef() : StringRef(it->second.file);
}

std::optional<uint64_t> KeySources::getBytes(StringRef key) const {
  auto it = sources.find(key);
  return it == sources.end() ? std::nullopt : it->second.bytes;
}

//===----------------------------------------------------------------------===//
// DelegateCalls
//===----------------------------------------------------------------------===//

DelegateCalls::DelegateCalls(const ProgramModel &model,
                             ArrayRef<const CheckedFile *> dataFiles)
    : model(model), keys(model, dataFiles) {
  for (const MethodModel &method : model.getMethods())
    for (auto [index, delegate] : llvm::enumerate(method.getDelegates()))
      users[{delegate.inSegment, delegate.dataIndex}].push_back(
          (method.getName() + "#" + Twine(index)).str());
}

StringRef DelegateCalls::getPayloadBytes(const DelegateModel &entry) const {
  const ProgramFile &file = model.getFile();
  const fb::Program &program = *file.getProgram();
  if (!entry.inSegment) {
    const auto *inlined = program.backend_delegate_data();
    if (!inlined || entry.dataIndex >= inlined->size() ||
        !inlined->Get(entry.dataIndex)->data())
      return "";
    const auto *data = inlined->Get(entry.dataIndex)->data();
    return StringRef(reinterpret_cast<const char *>(data->data()),
                     data->size());
  }
  if (entry.dataIndex >= file.getSegmentCount() || file.getSegmentBase() == 0)
    return "";
  SegmentPlacement segment = file.getSegmentPlacement(entry.dataIndex);
  StringRef bytes = file.getBytes();
  uint64_t start = file.getSegmentBase() + segment.offset;
  if (start < file.getSegmentBase() || start > bytes.size())
    return "";
  return bytes.substr(start,
                      std::min<uint64_t>(segment.size, bytes.size() - start));
}

std::vector<std::pair<StringRef, StringRef>>
DelegateCalls::getCompileSpecs(const DelegateModel &entry) const {
  std::vector<std::pair<StringRef, StringRef>> specs;
  if (const auto *table = entry.table ? entry.table->compile_specs() : nullptr)
    for (const fb::CompileSpec *spec : *table) {
      StringRef value;
      if (const auto *bytes = spec->value())
        value = StringRef(reinterpret_cast<const char *>(bytes->data()),
                          bytes->size());
      specs.push_back({spec->key() ? spec->key()->string_view() : "", value});
    }
  return specs;
}

std::shared_ptr<const DecodedPayload>
DelegateCalls::decode(const DelegateModel &entry) {
  std::vector<std::pair<StringRef, StringRef>> specs = getCompileSpecs(entry);
  PayloadInput input{entry.backend, getPayloadBytes(entry)};
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
        findDecoder(entry, {entry.backend, getPayloadBytes(entry)});
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
      if (value.namedKey && keys.lookup(*value.namedKey).empty() &&
          seen.insert(*value.namedKey).second)
        missing.push_back(
            {*value.namedKey,
             "value " + std::to_string(value.id) + "'s constant"});
  for (const NamedPart &part : payload.namedParts)
    if (part.required && keys.lookup(part.key).empty() &&
        seen.insert(part.key).second)
      missing.push_back({part.key, "its " + part.name});
  return missing;
}
