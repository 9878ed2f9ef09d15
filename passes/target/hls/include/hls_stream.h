// hls::stream for C simulation with g++: the project's own stand-in for
// Vitis HLS's header, so that the code sdfg-translate --emit-hls writes
// compiles unchanged with both.
//
// Unlike Vitis's C simulation, which runs dataflow processes one after
// another on unbounded queues, this runs every process of a DATAFLOW
// region on its own thread (SDFG_HLS_PROCESS / SDFG_HLS_JOIN), and a
// stream holds at most its declared depth: a write to a full stream and a
// read from an empty one block, as in hardware. A process blocked for
// longer than SDFG_HLS_DEADLOCK_SECONDS (default 5) reports a deadlock
// naming the stream and exits the program with status 3.
#ifndef SDFG_HLS_STREAM_H
#define SDFG_HLS_STREAM_H

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace sdfg_hls {

inline double deadlock_seconds() {
  const char *text = std::getenv("SDFG_HLS_DEADLOCK_SECONDS");
  return text ? std::atof(text) : 5.0;
}

// The processes of the running DATAFLOW region.
inline std::vector<std::thread> &processes() {
  static thread_local std::vector<std::thread> running;
  return running;
}

inline void spawn(std::function<void()> body) { processes().emplace_back(std::move(body)); }

inline void join() {
  for (auto &t : processes()) t.join();
  processes().clear();
}

}  // namespace sdfg_hls

#define SDFG_HLS_PROCESS(call) sdfg_hls::spawn([&] { call; })
#define SDFG_HLS_JOIN() sdfg_hls::join()

namespace hls {

// DEPTH is the stream's depth, as Vitis HLS's hls::stream<T, DEPTH>
// declares it (the emitted code also has a STREAM pragma).
template <typename T, int DEPTH = 2>
class stream {
 public:
  stream() : name_("stream"), depth_(DEPTH > 0 ? DEPTH : 1) {}
  explicit stream(const char *name) : name_(name), depth_(DEPTH > 0 ? DEPTH : 1) {}
  stream(const stream &) = delete;
  stream &operator=(const stream &) = delete;

  void write(const T &value) {
    std::unique_lock<std::mutex> lock(mutex_);
    wait(lock, [&] { return queue_.size() < depth_; }, "write to full");
    queue_.push_back(value);
    changed_.notify_all();
  }

  T read() {
    std::unique_lock<std::mutex> lock(mutex_);
    wait(lock, [&] { return !queue_.empty(); }, "read from empty");
    T value = queue_.front();
    queue_.pop_front();
    changed_.notify_all();
    return value;
  }

  void read(T &value) { value = read(); }
  void operator<<(const T &value) { write(value); }
  void operator>>(T &value) { value = read(); }

  bool read_nb(T &value) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (queue_.empty()) return false;
    value = queue_.front();
    queue_.pop_front();
    changed_.notify_all();
    return true;
  }

  bool write_nb(const T &value) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (queue_.size() >= depth_) return false;
    queue_.push_back(value);
    changed_.notify_all();
    return true;
  }

  bool empty() {
    std::lock_guard<std::mutex> lock(mutex_);
    return queue_.empty();
  }

  bool full() {
    std::lock_guard<std::mutex> lock(mutex_);
    return queue_.size() >= depth_;
  }

  size_t size() {
    std::lock_guard<std::mutex> lock(mutex_);
    return queue_.size();
  }

 private:
  template <typename Ready>
  void wait(std::unique_lock<std::mutex> &lock, Ready ready, const char *what) {
    const auto limit = std::chrono::duration<double>(sdfg_hls::deadlock_seconds());
    if (!changed_.wait_for(lock, limit, ready)) {
      std::fprintf(stderr, "deadlock: %s stream '%s' (depth %zu) blocked for %.1f s\n", what,
                   name_.c_str(), depth_, limit.count());
      std::fflush(stderr);
      std::_Exit(3);
    }
  }

  std::string name_;
  size_t depth_;
  std::deque<T> queue_;
  std::mutex mutex_;
  std::condition_variable changed_;
};

}  // namespace hls

#endif
