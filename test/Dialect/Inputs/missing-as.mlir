// An argument without `as "name"`.
sdfg.sdfg @p(%A: !sdfg.array<f64 ["N"]>, %B: !sdfg.scalar<f64> as "B") symbols {N = i64} {
}
