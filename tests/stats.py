"""Statistics the tests of samplers share."""


def chi_square(seen, law, draws):
    """Pearson's statistic of ``seen`` counts against the probabilities ``law``, and a bound
    a uniform sampler stays under at p < 1e-4 (degrees of freedom + 4 sd + 12)."""
    statistic = sum((seen.get(k, 0) - draws * p) ** 2 / (draws * p) for k, p in law.items())
    dof = len(law) - 1
    return statistic, dof + 4 * (2 * dof) ** 0.5 + 12
