//! Python tasklet code to MLIR bodies and back: the print of a translated
//! body translates to the same body, over the constructs the translation
//! supports (the property that makes import, export, import a fixed point).

use melior::ir::Module;
use sdfg_target_dace::mlir_python::print_body;
use sdfg_tasklet::{translate, InputType, Signature, Ty};

const SNIPPETS: &[&str] = &[
    "o = x * 2 + a\np = i / 2",
    "o = x * 0.5 - a * a\np = i % 3",
    "o = math.sin(x) + math.exp(a) + abs(x) + min(x, a, 1.0)\np = max(i, 0)",
    "o = x ** 2 + x ** 0.5 + x ** a + 2 ** x\np = i ** 2",
    "o = w[0] - 2 * w[1] + w[2]\np = -i",
    "o = 1.0 if x > a else 2.5\np = ~i",
    "t = x * a\no = t + t\np = 3",
    "o = dace.float32(x) + dace.float64(i)\np = int(x)",
    "o = x if (i > 0 and a < 2) else -x\np = i << 2",
    "o = N * x\np = N",
    "o = x // 2.5\np = i // 2",
    "q = a\no = math.atan2(x, 1) + math.fmod(x, 3)\np = i",
    "printf('x = %f, i = %d: 100%% \\'done\\'\\n', x * 2, i)\no = x\np = i",
    "o = 0.1\np = dace.int32(7)",
    "o = a\no += 1\np = i\np *= i",
    "o = float(not (x < 1))\np = True",
    "o = dace.float32(0.1) * a + 1e-5\np = 1 + 2",
    "p = i\no = a",
    "o = (a if a < x else x) + (1 if i == 2 else 0)\np = -3",
    "o = dace.float32(1e300) + a + math.inf\np = dace.int32(1e300)",
    "o = -math.inf * x + math.nan\np = int(-2.7)",
    "o = w[u] + u / 2 + dace.float64(u)\np = (u >> 1) % 3 + min(u, 4) + (1 if u < 7 else 0)",
    "o = x\np = dace.int64(u) + i + dace.uint32(x)",
    "if x > 1.0:\n    o = x\nelse:\n    o = a\np = i",
    "t = x\nif i > 0:\n    t = t * 2\nelif i < -1:\n    t = 0\n    s = 1\no = t\np = i",
    "p = i\nif a < x:\n    p = 2\n    if u > 3:\n        p = p + 1\no = w[p]",
    "t = x\nfor k in range(3):\n    t = t * 2 + k\no = t\np = i",
    "s = 0\nq = 1\nfor k in range(i):\n    s = s + k\n    q = q * s\no = x\np = s + q",
    "p = 0\nfor k in range(1, N, 2):\n    if k > 3:\n        p = p + k\no = w[p]",
    "o = 1.0 if Eq(i, 1) else x\np = Ne(x, a) + Le(i, 2)",
    "o = fmin(x, a) + fmax(a, 1.0) + max(x, a)\np = min(i, 3, 1)",
];

fn signature(symbol_type: &dyn Fn(&str) -> Option<Ty>) -> Signature<'_> {
    let element = |t: &str| InputType::Element(t.into());
    Signature {
        inputs: vec![
            ("a".into(), element("f32")),
            ("x".into(), element("f64")),
            ("i".into(), element("i32")),
            ("u".into(), element("ui32")),
            (
                "w".into(),
                InputType::Array {
                    element: "f64".into(),
                    shape: vec![Some(3)],
                },
            ),
        ],
        outputs: vec![("o".into(), "f64".into()), ("p".into(), "i32".into())],
        refs: Vec::new(),
        symbol_type,
    }
}

/// An SDFG with one tasklet of the signature above and `body`.
fn module_text(body: &str) -> String {
    let f32a = "!sdfg.array<f32 [\"8\"]>";
    let f64a = "!sdfg.array<f64 [\"8\"]>";
    let i32a = "!sdfg.array<i32 [\"8\"]>";
    let u32a = "!sdfg.array<ui32 [\"8\"]>";
    format!(
        r#"sdfg.sdfg @t(%A: {f32a} as "A", %X: {f64a} as "X", %I: {i32a} as "I", %O: {f64a} as "O", %P: {i32a} as "P", %U: {u32a} as "U") symbols {{N = i64}} {{
  sdfg.state @s {{
    %a = sdfg.access %A : {f32a}
    %x = sdfg.access %X : {f64a}
    %i = sdfg.access %I : {i32a}
    %u = sdfg.access %U : {u32a}
    %o, %p = sdfg.tasklet "t" ins("a" = %a["0"] : {f32a}, "x" = %x["0"] : {f64a}, "i" = %i["0"] : {i32a}, "u" = %u["0"] : {u32a}, "w" = %x["0:3"] : {f64a}) outs("o" : f64, "p" : i32) {{
{body}    }}
    %wo = sdfg.access %O writes(%o["0"] : f64) : {f64a}
    %wp = sdfg.access %P writes(%p["0"] : i32) : {i32a}
  }}
}}"#
    )
}

#[test]
fn printed_bodies_translate_back_to_the_same_body() {
    sdfg_registry::register_all();
    let symbol_type = |name: &str| (name == "N").then_some(Ty::Int(64));
    let signature = signature(&symbol_type);
    for code in SNIPPETS {
        let body = translate(code, &signature).unwrap_or_else(|e| panic!("{code}: {e}"));
        let context = sdfg_dialect::create_context();
        let module = Module::parse(&context, &module_text(&body))
            .unwrap_or_else(|| panic!("{code}: the body does not verify:\n{body}"));
        // SAFETY: the module outlives the handles taken from it here.
        let root = unsafe { sdfg_dialect::ir::Op::from_raw(module.as_operation().to_raw()) }
            .expect("a module");
        let tasklet = root
            .descendants()
            .into_iter()
            .find(|op| op.is("sdfg.tasklet"))
            .expect("the tasklet");
        let python =
            print_body(tasklet).unwrap_or_else(|e| panic!("{code}: cannot print: {}", e.message));
        let again = translate(&python, &signature)
            .unwrap_or_else(|e| panic!("{code}: the print {python:?} does not translate: {e}"));
        assert_eq!(again, body, "{code}\nprinted as:\n{python}");
    }
}
