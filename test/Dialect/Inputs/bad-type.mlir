// An unknown sdfg type.
sdfg.sdfg @p(%A: !sdfg.tensor<f64> as "A") {
}
