"""Learn to beat random players at Boom Bokken with a masked policy gradient (numpy only).

Seat 0 is a linear softmax policy over the legal action ids (the observation
tensor in, one weight row per id), trained by REINFORCE on its score through
``forestgames.rl.aec_env``; the other three seats play uniformly random legal
ids (PASS included on reaction turns). It prints seat 0's win rate against
random players before and after training; a few thousand games take well
under two minutes.

    python examples/rl_policy_gradient.py                # 3000 training games
    python examples/rl_policy_gradient.py --games 300 --eval 100
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from forestgames import rl

LEARNER = "player_0"
SEED_LIMIT = 2**64
"""Seeds are ints below 2**64 in the library."""
TRAINING_SEEDS = 10**7
"""Training game g of seed s is played with seed s * TRAINING_SEEDS + g."""


class MaskedLinearPolicy:
    """Softmax over the legal ids of ``w[id] . features``, updated by REINFORCE."""

    def __init__(self, num_ids: int, num_features: int, rate: float, seed: int) -> None:
        self.weights = np.zeros((num_ids, num_features + 1))
        self.rate = rate
        self.rng = np.random.default_rng(seed)
        self.trace: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = []

    @staticmethod
    def features(observation: np.ndarray) -> np.ndarray:
        """The tensor squashed to [0, 1] (counts capped at 8), plus a bias input."""
        return np.append(np.minimum(observation, 8.0) / 8.0, 1.0)

    def act(self, observation: np.ndarray, mask: np.ndarray, learn: bool) -> int:
        legal = np.flatnonzero(mask)
        x = self.features(observation)
        logits = self.weights[legal] @ x
        p = np.exp(logits - logits.max())
        p /= p.sum()
        k = int(self.rng.choice(len(legal), p=p))
        if learn:
            self.trace.append((x, legal, p, k))
        return int(legal[k])

    def update(self, advantage: float) -> None:
        """One REINFORCE step over the episode's decisions: grad log pi times ``advantage``."""
        for x, legal, p, k in self.trace:
            grad = -p
            grad[k] += 1.0
            self.weights[legal] += self.rate * advantage * np.outer(grad, x)
        self.trace.clear()


def play(env: object, policy: MaskedLinearPolicy, seed: int, learn: bool) -> tuple[float, bool]:
    """One game; seat 0's total score reward and whether it won."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)  # type: ignore[attr-defined]
    total = 0.0
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        obs, reward, terminated, truncated, _ = env.last()  # type: ignore[attr-defined]
        if agent == LEARNER:
            total += reward
        if terminated or truncated:
            env.step(None)  # type: ignore[attr-defined]
        elif agent == LEARNER:
            env.step(policy.act(obs["observation"], obs["action_mask"], learn))  # type: ignore[attr-defined]
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))  # type: ignore[attr-defined]
    return total, 0 in env.game_state.winners  # type: ignore[attr-defined]


def win_rate(env: object, policy: MaskedLinearPolicy, games: int, first_seed: int) -> float:
    return sum(play(env, policy, first_seed + g, learn=False)[1] for g in range(games)) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="training games")
    parser.add_argument("--eval", type=int, default=500, help="evaluation games, before and after")
    parser.add_argument("--rate", type=float, default=0.02, help="learning rate")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for flag, value, low in (("--games", args.games, 0), ("--eval", args.eval, 1),
                             ("--seed", args.seed, 0)):  # fmt: skip  # --eval 0 divided by 0
        if value < low:
            parser.error(f"{flag} must be >= {low}, not {value}")
    top = (SEED_LIMIT - max(args.games, 1)) // TRAINING_SEEDS  # the last game's seed is a seed
    if args.seed > top:
        parser.error(f"--seed must be <= {top}, not {args.seed}")
    if not math.isfinite(args.rate):  # nan made the policy's probabilities nan
        parser.error(f"--rate must be a finite number, not {args.rate}")

    env = rl.aec_env("boom_bokken", num_players=4, reward="score")
    space = env.observation_space(LEARNER)["observation"]
    policy = MaskedLinearPolicy(env.action_space(LEARNER).n, space.shape[0], args.rate, args.seed)
    start = time.perf_counter()
    before = win_rate(env, policy, args.eval, first_seed=10**6)
    baseline = 0.0
    for game in range(args.games):
        score, _ = play(env, policy, args.seed * TRAINING_SEEDS + game, learn=True)
        policy.update(score - baseline)
        baseline += 0.05 * (score - baseline)
    after = win_rate(env, policy, args.eval, first_seed=10**6)
    seconds = time.perf_counter() - start
    print(f"seat 0 against 3 random players, {args.eval} games each (a fair share is 25%)")
    print(f"win rate before training: {before:.1%}")
    print(f"win rate after {args.games} games: {after:.1%}   ({seconds:.0f} s in all)")


if __name__ == "__main__":
    main()
