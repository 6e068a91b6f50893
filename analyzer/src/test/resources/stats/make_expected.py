"""Expected statistics for StatsTest, computed independently with NumPy and SciPy.

Run from this directory:  python3 make_expected.py > expected.json
(produced with SciPy 1.17.1 and NumPy 2.4.6)
"""
import json

import numpy as np
from scipy import stats

DATASETS = {
    # run times of two groups (ms), small samples without ties: exact Mann-Whitney
    "small": {
        "platform": [415.2, 433.9, 441.0, 456.3, 470.8, 498.1, 513.4, 1020.0],
        "virtual": [278.4, 279.9, 281.2, 282.6, 283.7, 284.1, 290.5],
    },
    # larger samples with ties: normal approximation with tie correction
    "ties": {
        "platform": [10, 12, 12, 13, 15, 15, 15, 16, 18, 20, 21, 21, 22, 25, 30, 31, 33, 35, 40, 41, 60, 61, 62, 63, 64, 65],
        "virtual": [8, 9, 9, 10, 11, 12, 12, 12, 13, 14, 15, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29],
    },
}

# runs of one JVM a kind whose spreads differ (the thesis's boxes): 120 values each, drawn once with
# NumPy (normal around 415 ms, sd 30; around 284 ms, sd 8), rounded to 0.1 ms and kept here
_rng = np.random.default_rng(20201)
DATASETS["spread"] = {
    "platform": [round(float(x), 1) for x in _rng.normal(415, 30, 120)],
    "virtual": [round(float(x), 1) for x in _rng.normal(284, 8, 120)],
}


def spread(v, p):
    """IQR ratio of v to p, relative ratio, and SciPy's percentile bootstrap 95% interval of the ratio."""
    v, p = np.asarray(v, dtype=float), np.asarray(p, dtype=float)
    ratio = stats.iqr(v) / stats.iqr(p)
    ci = stats.bootstrap((v, p), lambda a, b: stats.iqr(a) / stats.iqr(b), vectorized=False, paired=False,
                         n_resamples=20000, method="percentile", random_state=np.random.default_rng(1)).confidence_interval
    return {"ratio": float(ratio), "relativeRatio": float(ratio * np.median(p) / np.median(v)),
            "ciLow": float(ci.low), "ciHigh": float(ci.high)}


def boxplot(v):
    v = np.sort(np.asarray(v, dtype=float))
    q1, med, q3 = np.percentile(v, [25, 50, 75])  # linear interpolation = R type 7
    iqr = q3 - q1
    lo, hi = q1 - 1.5 * iqr, q3 + 1.5 * iqr
    inside = v[(v >= lo) & (v <= hi)]
    return {
        "n": int(len(v)), "min": float(v[0]), "q1": float(q1), "median": float(med), "q3": float(q3), "iqr": float(iqr),
        "lowerWhisker": float(inside.min()), "upperWhisker": float(inside.max()), "max": float(v[-1]),
        "outliers": [float(x) for x in v[(v < lo) | (v > hi)]],
        "mean": float(v.mean()), "sd": float(v.std(ddof=1)),
    }


def regression(y):
    y = np.asarray(y, dtype=float)
    x = np.arange(len(y), dtype=float)
    r = stats.linregress(x, y)
    n = len(y)
    resid = y - (r.intercept + r.slope * x)
    rse = float(np.sqrt((resid ** 2).sum() / (n - 2)))
    t = stats.t.ppf(0.975, n - 2)
    sxx = ((x - x.mean()) ** 2).sum()
    band = np.mean([t * rse * np.sqrt(1 + 1 / n + (xi - x.mean()) ** 2 / sxx) for xi in x])
    return {
        "slope": float(r.slope), "intercept": float(r.intercept), "r2": float(r.rvalue ** 2), "rse": rse,
        "slopeCiLow": float(r.slope - t * r.stderr), "slopeCiHigh": float(r.slope + t * r.stderr),
        "slopeP": float(r.pvalue), "predictionHalfWidth": float(band),
    }


out = {}
for name, groups in DATASETS.items():
    p, v = groups["platform"], groups["virtual"]
    ties = len(set(p + v)) < len(p + v)
    mw = stats.mannwhitneyu(v, p, alternative="two-sided", method="asymptotic" if ties else "exact",
                            use_continuity=True)
    cliffs = (sum(1 for a in v for b in p if a > b) - sum(1 for a in v for b in p if a < b)) / (len(v) * len(p))
    out[name] = {
        "data": groups,
        "boxplot": {"platform": boxplot(p), "virtual": boxplot(v)},
        "regression": {"platform": regression(p), "virtual": regression(v)},
        "mannWhitney": {"u": float(mw.statistic), "p": float(mw.pvalue), "exact": not ties},
        "cliffsDelta": cliffs,
        "medianRatio": float(np.median(v) / np.median(p)),
        "spread": spread(v, p),
    }
print(json.dumps(out, indent=1))
