"""Expected Mann-Whitney U tests for MannWhitneyPropertyTest, computed with SciPy.

Run from this directory:  python3 make_mannwhitney.py > mannwhitney.tsv
(produced with SciPy 1.17.1 and NumPy 2.4.6)

One line per generated dataset: kind, x, y (comma-separated), U of x, the exact two-sided p (or
'-' where there are ties), and the asymptotic two-sided p with tie and continuity correction.
Kinds: random (continuous), ties (small integers), centre (U exactly n1*n2/2), zeros (mostly
zero, as GC pauses per run are), constant (every value equal), shifted (a real difference).
"""
import numpy as np
from scipy import stats

rng = np.random.default_rng(20261124)


def centre(n1, n2):
    # interleaved values: x at even ranks, y at odd ranks, then mirrored so U = n1*n2/2 exactly
    while True:
        x = rng.normal(size=n1).round(3)
        y = rng.normal(size=n2).round(3)
        if len(set(np.concatenate([x, y]))) < n1 + n2:
            continue
        u = stats.mannwhitneyu(x, y).statistic
        if u == n1 * n2 / 2:
            return x, y


def dataset(kind, n1, n2):
    if kind == "random":
        return rng.lognormal(size=n1).round(4), rng.lognormal(size=n2).round(4)
    if kind == "shifted":
        return (rng.normal(size=n1) + 1.5).round(4), rng.normal(size=n2).round(4)
    if kind == "ties":
        return rng.integers(0, 5, n1).astype(float), rng.integers(0, 5, n2).astype(float)
    if kind == "zeros":
        return (rng.random(n1) < 0.3) * rng.integers(1, 40, n1).astype(float), (rng.random(n2) < 0.3) * rng.integers(1, 40, n2).astype(float)
    if kind == "constant":
        return np.full(n1, 7.0), np.full(n2, 7.0)
    return centre(n1, n2)


def fmt(v):
    return ",".join(repr(float(a)) for a in v)


print("kind\tx\ty\tu\tp_exact\tp_asymptotic")
kinds = ["random", "shifted", "ties", "zeros", "constant", "centre"]
for i in range(3000):
    kind = kinds[i % len(kinds)]
    n1 = int(rng.integers(2, 31))
    n2 = int(rng.integers(2, 31))
    if kind == "centre":
        while (n1 * n2) % 2:  # U = n1*n2/2 needs an even product
            n2 = int(rng.integers(2, 31))
    x, y = dataset(kind, n1, n2)
    ties = len(set(np.concatenate([x, y]))) < n1 + n2
    asym = stats.mannwhitneyu(x, y, alternative="two-sided", method="asymptotic", use_continuity=True)
    exact = "-" if ties else repr(float(stats.mannwhitneyu(x, y, alternative="two-sided", method="exact").pvalue))
    p_asym = asym.pvalue
    print("\t".join([kind, fmt(x), fmt(y), repr(float(asym.statistic)), exact, "nan" if np.isnan(p_asym) else repr(float(p_asym))]))
