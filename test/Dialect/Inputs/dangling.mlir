// A tasklet whose output goes nowhere: valid for the op verifiers, rejected
// by sdfg-validate.
sdfg.sdfg @dangling() {
  sdfg.state @s {
    %o = sdfg.tasklet "t" outs("o" : f64) code python "o = 1.0"
  }
}
