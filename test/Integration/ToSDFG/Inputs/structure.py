"""Counts, per converted function of each program in this folder, the
parallel loops, loops and branches of the input and the maps and states of
its SDFG: every parallel loop must become a map, and the SDFG may have at
most as many states as the function has loops and branches, plus a small
constant (the states before and after them). A call is a nested SDFG:
it counts as the callee's loops and branches plus the constant."""
import re
import subprocess
import sys
from pathlib import Path

SLACK = 4
folder, sdfg_opt = Path(sys.argv[1]), sys.argv[2]
failures = 0
checked = 0


def functions(text, opener):
    """Function name -> body text, split at each top-level `opener` line
    (`opener` includes the indentation of the top level)."""
    parts = re.split(rf"^{opener} @([\w.]+)", text, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


for program in sorted(folder.glob("*.mlir")):
    source = program.read_text()
    # A tensor program is bufferized first, as its RUN lines do.
    bufferize = re.search(r'(--one-shot-bufferize="[^"]*")', source)
    options = [bufferize.group(1).replace('"', "")] if bufferize else []
    converted = subprocess.run(
        [sdfg_opt, str(program), *options, "--convert-to-sdfg"], capture_output=True, text=True, check=True
    ).stdout
    sdfgs = functions(converted, "  sdfg.sdfg")
    bodies = functions(source, "func.func")

    def budget(name):
        """Parallel loops and the allowed states of `name`, callees included."""
        body = bodies[name]
        parallel = len(re.findall(r"= (scf|affine)\.parallel|^\s*(scf|affine)\.parallel", body, re.M))
        control = len(re.findall(r"\b(scf\.for|affine\.for|scf\.while|scf\.if|affine\.if)\b", body))
        # A branch with an else region is two branches, a state each.
        control += len(re.findall(r"\}\s*else\s*\{", body))
        # An scf.while is written as its "before" region, then a loop of its
        # "after" region and "before" again: three regions.
        control += 2 * len(re.findall(r"\bscf\.while\b", body))
        # ... so the loops and branches of its "before" region count twice.
        for before in re.findall(r"\bscf\.while\b(.*?)\}\s*do\s*\{", body, re.S):
            control += len(re.findall(r"\b(scf\.for|affine\.for|scf\.if|affine\.if)\b", before))
            control += len(re.findall(r"\}\s*else\s*\{", before))
        # A loop that carries an index reads it through a symbol, assigned
        # on the edge out of an empty state at the start of each iteration.
        control += len(re.findall(r"iter_args\([^)]*\)\s*->\s*\(?[^{]*\bindex\b", body))
        # A linalg op is a loop nest (lowered to scf.parallel and scf.for).
        control += len(re.findall(r"\blinalg\.(?!yield\b)\w+", body))
        for callee in re.findall(r"call @([\w.]+)\(", body):
            if callee in bodies:
                p, c = budget(callee)
                parallel, control = parallel + p, control + c + SLACK
        return parallel, control

    for name in bodies:
        sdfg = sdfgs.get(f"{name}_sdfg")
        if sdfg is None:
            continue
        parallel, control = budget(name)
        maps = len(re.findall(r"sdfg\.map \"", sdfg))
        states = len(re.findall(r"sdfg\.state @", sdfg))
        checked += 1
        if maps < parallel or states > control + parallel + SLACK:
            failures += 1
            print(f"{program.name} @{name}: {parallel} parallel loops -> {maps} maps; "
                  f"{control} loops and branches -> {states} states")
print(f"{checked} functions checked, {failures} failed")
sys.exit(1 if failures or checked < 40 else 0)
