// Support for the testbenches sdfg-translate --emit-hls-testbench writes
// (host code, never synthesized): command-line symbols and .npy input and
// output of strided arrays.
#ifndef SDFG_HLS_TESTBENCH_H
#define SDFG_HLS_TESTBENCH_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "hls_stream.h"

namespace sdfg_hls {

[[noreturn]] inline void fail(const std::string &message) {
  std::fprintf(stderr, "testbench: %s\n", message.c_str());
  std::exit(2);
}

// Visits the positions of a shape in row-major order; `visit(k, offset)`
// gets the running element number and the linear offset from strides.
template <typename Visit>
void each(const std::vector<long long> &shape, const std::vector<long long> &strides,
          const std::vector<long long> &offsets, Visit visit) {
  size_t rank = shape.size();
  long long count = 1;
  for (long long s : shape) count *= s;
  std::vector<long long> index(rank, 0);
  for (long long k = 0; k < count; ++k) {
    long long linear = 0;
    for (size_t d = 0; d < rank; ++d) linear += (index[d] + offsets[d]) * strides[d];
    visit(k, linear);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
}

// A zero-initialised array of a testbench (std::vector<bool> has no
// data()); assignment copies the elements.
template <typename T>
class Buffer {
 public:
  explicit Buffer(size_t size) : size_(size), data_(new T[size ? size : 1]()) {}
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &other) {
    for (size_t k = 0; k < size_ && k < other.size_; ++k) data_[k] = other.data_[k];
    return *this;
  }
  ~Buffer() { delete[] data_; }
  T *data() { return data_; }
  T &operator[](size_t k) { return data_[k]; }

 private:
  size_t size_;
  T *data_;
};

class Args {
 public:
  Args(int argc, char **argv) {
    if (argc < 3) fail("usage: testbench INPUT_DIR OUTPUT_DIR [SYMBOL=VALUE ...]");
    inputs_ = argv[1];
    outputs_ = argv[2];
    for (int k = 3; k < argc; ++k) {
      std::string arg = argv[k];
      size_t eq = arg.find('=');
      if (eq == std::string::npos) fail("expected SYMBOL=VALUE, got " + arg);
      symbols_[arg.substr(0, eq)] = std::atoll(arg.c_str() + eq + 1);
    }
  }

  long long symbol(const std::string &name) const {
    auto it = symbols_.find(name);
    if (it == symbols_.end()) fail("symbol " + name + " has no value (pass " + name + "=VALUE)");
    return it->second;
  }

  // Reads INPUT_DIR/NAME.npy (C order) into the strided `data`; leaves
  // it as it is (zero) when the file does not exist.
  template <typename T>
  void read(const std::string &name, T *data, std::vector<long long> shape,
            std::vector<long long> strides, std::vector<long long> offsets, const char *descr) {
    std::ifstream in(inputs_ + "/" + name + ".npy", std::ios::binary);
    if (!in) return;
    char magic[8];
    in.read(magic, 8);
    if (std::memcmp(magic, "\x93NUMPY", 6) != 0) fail(name + ".npy is not a .npy file");
    size_t header_length;
    if (magic[6] == 1) {
      unsigned char b[2];
      in.read(reinterpret_cast<char *>(b), 2);
      header_length = b[0] | (b[1] << 8);
    } else {
      unsigned char b[4];
      in.read(reinterpret_cast<char *>(b), 4);
      header_length = b[0] | (b[1] << 8) | (b[2] << 16) | ((size_t)b[3] << 24);
    }
    std::string header(header_length, ' ');
    in.read(&header[0], header_length);
    if (header.find(std::string("'") + descr + "'") == std::string::npos)
      fail(name + ".npy does not hold " + descr + " elements: " + header);
    if (header.find("'fortran_order': True") != std::string::npos)
      fail(name + ".npy is in Fortran order");
    long long count = 1;
    for (long long s : shape) count *= s;
    // Raw bytes: std::vector<bool> holds no array of bool.
    std::vector<char> raw(count * sizeof(T));
    in.read(raw.data(), raw.size());
    if (!in) fail(name + ".npy holds fewer than " + std::to_string(count) + " elements");
    auto value = [&](long long k) {
      T v;
      std::memcpy(&v, raw.data() + k * sizeof(T), sizeof(T));
      return v;
    };
    if (shape.empty()) {
      data[0] = value(0);
      return;
    }
    each(shape, strides, offsets, [&](long long k, long long at) { data[at] = value(k); });
  }

  // Writes the strided `data` as OUTPUT_DIR/NAME.npy (C order).
  template <typename T>
  void write(const std::string &name, const T *data, std::vector<long long> shape,
             std::vector<long long> strides, std::vector<long long> offsets, const char *descr) {
    long long count = 1;
    for (long long s : shape) count *= s;
    std::vector<char> raw(count * sizeof(T));
    auto put = [&](long long k, const T &v) { std::memcpy(raw.data() + k * sizeof(T), &v, sizeof(T)); };
    if (shape.empty())
      put(0, data[0]);
    else
      each(shape, strides, offsets, [&](long long k, long long at) { put(k, data[at]); });
    std::ostringstream dims;
    dims << "(";
    for (size_t d = 0; d < shape.size(); ++d) dims << shape[d] << (shape.size() == 1 ? "," : (d + 1 < shape.size() ? ", " : ""));
    dims << ")";
    std::string header = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': " + dims.str() + ", }";
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::ofstream out(outputs_ + "/" + name + ".npy", std::ios::binary);
    if (!out) fail("cannot write " + outputs_ + "/" + name + ".npy");
    out.write("\x93NUMPY\x01\x00", 8);
    unsigned char b[2] = {(unsigned char)(header.size() & 0xff), (unsigned char)(header.size() >> 8)};
    out.write(reinterpret_cast<char *>(b), 2);
    out.write(header.data(), header.size());
    out.write(raw.data(), raw.size());
  }

 private:
  std::string inputs_, outputs_;
  std::map<std::string, long long> symbols_;
};

}  // namespace sdfg_hls

#endif
