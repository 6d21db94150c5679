#pragma once
// Keeps released objects that are costly to make (page-locked host buffers:
// cudaHostAlloc or cudaHostRegister of 1 GiB took 0.1-0.5 s on the GPU
// machines, paid again by every record that wanted the same buffer) for the
// next caller that wants one of the same key and a size it can serve.
// Bounded: at most `cap_bytes` idle, the least recently released dropped
// first; a thing larger than the cap is never kept.
// Pure bookkeeping, no CUDA: tests drive it with plain objects.
#include <algorithm>
#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <utility>

namespace hwcomm {

template <typename Key, typename Thing>
class RecyclingPool {
public:
    explicit RecyclingPool(std::size_t cap_bytes) : cap_bytes_(cap_bytes) {}
    RecyclingPool(const RecyclingPool&) = delete;
    RecyclingPool& operator=(const RecyclingPool&) = delete;

    struct Taken {
        std::unique_ptr<Thing> thing;  // nullptr when none fits
        std::size_t bytes = 0;         // its own size, >= the size asked for
    };
    // An idle thing of this key: the most recently released of exactly
    // `bytes`, else the smallest of at most `bytes * max_factor` (a larger
    // buffer serves a smaller request: the session uses its first `bytes`).
    Taken take(const Key& key, std::size_t bytes, std::size_t max_factor = 1) {
        std::lock_guard lock(mutex_);
        auto best = idle_.end();
        for (auto it = idle_.begin(); it != idle_.end(); ++it) {
            if (!(it->key == key) || it->bytes < bytes) continue;
            if (it->bytes == bytes) {
                best = it;
                break;
            }
            if (it->bytes / std::max<std::size_t>(max_factor, 1) > bytes) continue;
            if (best == idle_.end() || it->bytes < best->bytes) best = it;
        }
        if (best == idle_.end()) return {};
        Taken out{std::move(best->thing), best->bytes};
        idle_bytes_ -= best->bytes;
        idle_.erase(best);
        ++reused_;
        return out;
    }

    // Keeps `thing` for a later take(); returns the things that no longer fit
    // (the oldest idle ones, or `thing` itself when it alone exceeds the cap),
    // for the caller to destroy outside the lock.
    std::list<std::unique_ptr<Thing>> give(const Key& key, std::size_t bytes, std::unique_ptr<Thing> thing) {
        std::list<std::unique_ptr<Thing>> evicted;
        std::lock_guard lock(mutex_);
        if (bytes > cap_bytes_) {
            evicted.push_back(std::move(thing));
            return evicted;
        }
        idle_.push_front({key, bytes, std::move(thing)});
        idle_bytes_ += bytes;
        while (idle_bytes_ > cap_bytes_) {
            idle_bytes_ -= idle_.back().bytes;
            evicted.push_back(std::move(idle_.back().thing));
            idle_.pop_back();
        }
        return evicted;
    }

    // Every idle thing, handed to the caller (to destroy, or to leak at exit).
    std::list<std::unique_ptr<Thing>> drain() {
        std::list<std::unique_ptr<Thing>> out;
        std::lock_guard lock(mutex_);
        for (Entry& e : idle_) out.push_back(std::move(e.thing));
        idle_.clear();
        idle_bytes_ = 0;
        return out;
    }

    std::size_t idle_bytes() const {
        std::lock_guard lock(mutex_);
        return idle_bytes_;
    }
    std::size_t idle_count() const {
        std::lock_guard lock(mutex_);
        return idle_.size();
    }
    std::size_t reused() const {
        std::lock_guard lock(mutex_);
        return reused_;
    }
    std::size_t cap_bytes() const { return cap_bytes_; }

private:
    struct Entry {
        Key key;
        std::size_t bytes;
        std::unique_ptr<Thing> thing;
    };
    const std::size_t cap_bytes_;
    mutable std::mutex mutex_;
    std::list<Entry> idle_;  // most recently released first
    std::size_t idle_bytes_ = 0;
    std::size_t reused_ = 0;
};

}  // namespace hwcomm
