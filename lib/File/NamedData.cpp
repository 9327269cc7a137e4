//===- NamedData.cpp - Named data keys, where the runtime finds them ------===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include "emit/File/NamedData.h"

#include "emit/File/DataFile.h"
#include "emit/File/ProgramFile.h"
#include "emit/File/flat_tensor_generated.h"
#include "emit/File/program_generated.h"

using namespace emit;

/// Where `entry` of `holder` (named `file`) is; its bytes those of its
/// segment, where `segments` has it.
template <typename Entry, typename Segments>
static NamedDataSource getSource(const Entry &entry, StringRef file,
                                 const SegmentedFile &holder,
                                 const Segments *segments) {
  NamedDataSource source{file, std::nullopt, std::nullopt};
  if (!segments || entry.segment_index() >= segments->size())
    return source;
  source.bytes = segments->Get(entry.segment_index())->size();
  source.contents = holder.findSegmentBytes(entry.segment_index());
  return source;
}

NamedDataIndex::NamedDataIndex(const ProgramFile &program,
                               ArrayRef<const CheckedFile *> files) {
  addProgram(program);
  for (const CheckedFile *file : files) {
    dataFiles.push_back(file->getName().str());
    if (const auto *data = dyn_cast<DataFile>(file))
      addDataFile(*data);
  }
}

void NamedDataIndex::addProgram(const ProgramFile &file) {
  const auto *program = file.getProgram();
  const auto *named = program ? program->named_data() : nullptr;
  if (!named)
    return;
  for (const auto *entry : *named)
    if (entry->key())
      inProgram.try_emplace(
          entry->key()->string_view(),
          getSource(*entry, "program", file, program->segments()));
}

void NamedDataIndex::addDataFile(const DataFile &file) {
  const auto *flatTensor = file.getFlatTensor();
  if (!flatTensor || !flatTensor->named_data())
    return;
  // The first data file to hold a key owns it (two holding it is the
  // runtime's "Duplicate key").
  for (const auto *entry : *flatTensor->named_data())
    if (entry->key())
      external.try_emplace(
          entry->key()->string_view(),
          getSource(*entry, file.getName(), file, flatTensor->segments()));
}

const NamedDataSource *NamedDataIndex::lookupForTensor(StringRef key) const {
  auto it = external.find(key);
  return it == external.end() ? nullptr : &it->second;
}

const NamedDataSource *NamedDataIndex::lookupForBackend(StringRef key) const {
  if (const NamedDataSource *source = lookupForTensor(key))
    return source;
  auto it = inProgram.find(key);
  return it == inProgram.end() ? nullptr : &it->second;
}

size_t emit::countKeysWithoutLayout(const DataFile &file) {
  const auto *flatTensor = file.getFlatTensor();
  if (!flatTensor || !flatTensor->named_data())
    return 0;
  size_t count = 0;
  for (const auto *entry : *flatTensor->named_data())
    count += entry->tensor_layout() == nullptr;
  return count;
}
