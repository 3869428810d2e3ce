"""Layout of a solver context's arrays and the flags and constants the search shares.

A context (``engine.dds.solver.SolverContext``) holds ``tt`` (the
transposition table), ``meta`` (``META_*`` words), ``st`` (the explicit
stack, ``N_FIELDS`` fields ``F_*`` per depth) and ``mv`` (move lists and their
ordering scores per depth).
"""

MAX_DEPTH = 34  # 30 card plays + root + slack
MAX_MOVES = 12
MOVE_COLUMNS = 2 * MAX_MOVES  # moves, then their ordering scores
N_FIELDS = 21
(F_H0, F_H1, F_H2, F_LEAD, F_N, F_T0, F_T1, F_ACC, F_REM, F_ALPHA, F_BETA, F_ALPHA0, F_BETA0,
 F_BEST, F_BESTMOVE, F_MI, F_NM, F_SLOT, F_KEY0, F_KILLER, F_DEFERRED) = range(N_FIELDS)

META_GEN, META_NODES, META_FLAGS, META_ABORT, META_NODE_LIMIT, META_SOLVE_START = 0, 1, 2, 3, 4, 5
META_SIZE = 8
# META_ABORT: set (non-zero) from any thread to stop the running and every later
# solve of this context until cleared.  META_NODE_LIMIT: nodes one solve may
# search (0 = no limit); META_SOLVE_START: node counter when the solve began.
ABORT_CHECK_MASK = 511  # check the abort word every 512 nodes (~40 us)
ABORTED = -2
"""Returned by every entry point (and ``search``) when a solve was aborted."""
# META_FLAGS bits switch techniques off, to measure what each buys.
FLAG_NO_TT = 1
FLAG_NO_ORDER = 2
FLAG_NO_EQUIV = 4
FLAG_BINARY_ONLY = 8  # exact value by plain bisection instead of fail-soft bound jumps
FLAG_RAW_TT = 16  # TT keyed on the exact cards (no quasi-symmetry: no class compression, no point shifts)
FLAG_NO_QUICK = 32  # no one-trick sure-winner bound at trick starts
FLAG_NO_SURE_POINTS = 128  # no static sure-points bounds (unbeatable trumps; null: declarer safe everywhere)
FLAG_NO_KILLER = 256  # no killer lead in the move ordering
FLAG_NO_GUESS = 64  # exact values without a first guess (plain fail-soft bisection)
FLAG_NO_ENDGAME = 512  # no direct evaluation of the last two or three tricks (search them node by node)

# TT: 2-way buckets of two-word entries, keyed on the quasi-symmetric view of a
# trick start: who holds each card in play, in class and rank order (which
# cards, and so their points, dropped).  Word 0 = pext(hand 0, cards in play)
# | pext(hand 1, cards in play) << 32 (hand 2 holds the rest); word 1 bits
# 0..31 the real cards in play (internal union: with word 0 and the class
# counts it identifies the position, and it gives the point shift), 32..33
# leader, 34..40 / 41..47 lower / upper bound on the declarer's future points,
# 48..52 best move (its rank in its class), 53..63 generation.  The bucket is
# hashed from word 0, the class counts (``compressed_union``) and the leader.
# A new entry takes way 0 of its bucket and moves the old way-0 entry to way 1.
KEY_MASK = (1 << 34) - 1
GEN_LIMIT = 2047

INF = 1000
KILLER_SCORE = 600
KILLER_SCORE_DECLARER = 2000
"""Order scores of the killer lead: a defender's after the TT move and the sure
winners (>= 1000), the declarer's before his sure winners (after the TT move)."""
PARTNER_LEAD_BONUS = 200
"""Added to a defender's low lead in a suit his partner can take (still below trump draws)."""

