// Calls a compiled SDFG with persistent transients several times, with
// sizes that grow, shrink and grow again, and prints a checksum of its
// output after each call (see ../persistent.mlir).
#include <cstdint>
#include <cstdio>
#include <vector>

struct Descriptor {
  double *allocated, *aligned;
  int64_t offset, size, stride;
};

extern "C" void _mlir_ciface_keep_between_calls(Descriptor *a, Descriptor *b, int64_t n);

int main() {
  for (int64_t n : {4, 200000, 3, 200000}) {
    std::vector<double> a(n), b(n, -1.0);
    for (int64_t i = 0; i < n; ++i) a[i] = double(i);
    Descriptor da{a.data(), a.data(), 0, n, 1}, db{b.data(), b.data(), 0, n, 1};
    _mlir_ciface_keep_between_calls(&da, &db, n);
    double sum = 0;
    for (double v : b) sum += v;
    std::printf("N=%lld sum=%.1f\n", static_cast<long long>(n), sum);
  }
  return 0;
}
