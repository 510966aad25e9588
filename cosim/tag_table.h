// A record per instruction in flight, found by its tag, for tags issued
// mostly in increasing order and forgotten mostly in the same order (the
// front-end's are 0, 1, 2, ...): a ring of slots from the oldest tag not
// yet forgotten, whose records are reused without allocation; a tag out of
// that order is kept in a hash map beside it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tcu {

template <class T>
class TagTable {
 public:
  // The record of `tag`: its old one if it has one, else a new one (a
  // reused slot holds what its last tag left: the caller sets every field).
  T& insert(uint64_t tag) {
    if (T* found = find(tag)) return *found;
    if (count_ == 0) base_ = tag;  // the ring starts again here
    if (tag == base_ + count_) {
      if (count_ == ring_.size()) grow();
      Slot& slot = ring_[(head_ + count_) % ring_.size()];
      ++count_;
      slot.used = true;
      return slot.value;
    }
    if (tag >= base_ && tag < base_ + count_) {
      Slot& slot = ring_[(head_ + (tag - base_)) % ring_.size()];
      slot.used = true;
      return slot.value;
    }
    return others_[tag];
  }
  T* find(uint64_t tag) {
    if (tag >= base_ && tag < base_ + count_) {
      Slot& slot = ring_[(head_ + (tag - base_)) % ring_.size()];
      if (slot.used) return &slot.value;
    }
    if (others_.empty()) return nullptr;
    auto it = others_.find(tag);
    return it == others_.end() ? nullptr : &it->second;
  }
  const T* find(uint64_t tag) const { return const_cast<TagTable*>(this)->find(tag); }
  // Forgets `tag` (nothing if it has no record).
  void erase(uint64_t tag) {
    if (tag >= base_ && tag < base_ + count_) {
      Slot& slot = ring_[(head_ + (tag - base_)) % ring_.size()];
      if (slot.used) {
        slot.used = false;
        while (count_ > 0 && !ring_[head_].used) {
          head_ = (head_ + 1) % ring_.size();
          ++base_;
          --count_;
        }
        return;
      }
    }
    if (!others_.empty()) others_.erase(tag);
  }

 private:
  struct Slot {
    bool used = false;
    T value{};
  };
  void grow() {
    std::vector<Slot> bigger(ring_.empty() ? 16 : 2 * ring_.size());
    for (size_t i = 0; i < count_; ++i) bigger[i] = std::move(ring_[(head_ + i) % ring_.size()]);
    ring_ = std::move(bigger);
    head_ = 0;
  }

  std::vector<Slot> ring_;
  uint64_t base_ = 0;            // the tag of ring_[head_]
  size_t head_ = 0, count_ = 0;  // the slots of tags base_ .. base_ + count_ - 1
  std::unordered_map<uint64_t, T> others_;
};

}  // namespace tcu
