//===- DelegateCalls.h - A program's delegate calls, as their payloads say
//-===//
//
// Copyright (c) emit authors. SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//
//
// What every view of a program asks of its delegate entries' payloads,
// answered once: each payload decoded by its backend's decoder once per
// place it lies (entries that share a payload and agree on the compile
// specs its decoder reads share the decoding), which of a call's arguments
// the backend reads and writes (the method's data flow), and where the
// named data keys a payload needs are: the program's named data or the
// data files the program is loaded with, looked up as the runtime's merged
// data map looks them up. The graph, the memory checks and emit-verify ask
// this one place.
//
//===----------------------------------------------------------------------===//

#ifndef EMIT_DELEGATECALLS_DELEGATECALLS_H
#define EMIT_DELEGATECALLS_DELEGATECALLS_H

#include "emit/Delegate/PayloadDecoder.h"
#include "emit/File/NamedData.h"
#include "emit/Support/LLVM.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace emit {
class CheckedFile;
class MethodModel;
class ProgramModel;
struct DelegateModel;
} // namespace emit

namespace emit::delegate {

/// A key a payload needs that no file given holds.
struct MissingKey {
  std::string key;
  /// What names it: `value 3's constant`, `its shared library`.
  std::string namedBy;
};

/// A program's delegate entries, as their payloads say. It points into the
/// model and its file: they outlive it.
class DelegateCalls {
public:
  DelegateCalls(const ProgramModel &model,
                ArrayRef<const CheckedFile *> dataFiles);

  /// Where the named data keys are, as the runtime merges the program's
  /// and the data files'.
  const NamedDataIndex &getKeys() const { return keys; }
  /// What `entry`'s payload holds, decoded once per place and per the
  /// compile spec values its decoder reads.
  std::shared_ptr<const DecodedPayload> decode(const DelegateModel &entry);
  /// The other entries (`method#index`) whose payload lies where `entry`'s
  /// does; `self` names `entry`.
  std::vector<std::string> getSharers(const DelegateModel &entry,
                                      StringRef self) const;
  /// Per entry of `method`'s delegate table, what its payload says of a
  /// call's arguments; null where it says nothing (a payload whose decoder
  /// says nothing of them is not decoded). The pointers live as long as
  /// this.
  std::vector<const CallArguments *>
  getCallArguments(const MethodModel &method);
  /// The keys `payload` needs that neither the program nor a data file
  /// given holds: the backend's init fails to load them.
  std::vector<MissingKey> findMissingKeys(const DecodedPayload &payload) const;

private:
  /// `entry`'s decoder, found once per place from `input` (its payload's
  /// first bytes read once); null when none reads it.
  const PayloadDecoder *findDecoder(const DelegateModel &entry,
                                    const PayloadInput &input);

  using Place = std::pair<bool, uint32_t>;
  const ProgramModel &model;
  NamedDataIndex keys;
  std::map<Place, std::vector<std::string>> users;
  std::map<Place, const PayloadDecoder *> decoders;
  std::map<std::tuple<bool, uint32_t, std::string>,
           std::shared_ptr<const DecodedPayload>>
      payloads;
};

} // namespace emit::delegate

#endif // EMIT_DELEGATECALLS_DELEGATECALLS_H
