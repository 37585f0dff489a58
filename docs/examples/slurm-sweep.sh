#!/bin/sh
# A sweep as a Slurm job array: SHARDS tasks of CPUS threads each write
# OUT/part-I.jsonl, and a merge job, which runs once every task has
# succeeded, joins them into OUT/sweep.jsonl.  Prints the two job ids.
# A task requeued or rerun (scontrol requeue JOBID_I) resumes its part.
#
#   SPEC=spec.json SHARDS=32 CPUS=4 OUT=run1 sh slurm-sweep.sh
#
# sbatch takes its other options from the environment (SBATCH_PARTITION,
# SBATCH_TIMELIMIT, SBATCH_ACCOUNT, ...); the tasks find tilefit on PATH.
set -eu
: "${SPEC:?set SPEC to the sweep spec}"
export SPEC SHARDS="${SHARDS:-32}" OUT="${OUT:-.}"
mkdir -p "$OUT"
array=$(sbatch --parsable --job-name=tilefit-sweep --array="1-$SHARDS" --cpus-per-task="${CPUS:-4}" \
  --requeue --output="$OUT/slurm-%A_%a.out" --wrap 'exec tilefit sweep "$SPEC" \
    --shard "$SLURM_ARRAY_TASK_ID/$SHARDS" -j "$SLURM_CPUS_PER_TASK" \
    -o "$OUT/part-$SLURM_ARRAY_TASK_ID.jsonl" --resume --quiet')
array=${array%%;*}
merge=$(sbatch --parsable --job-name=tilefit-merge --dependency="afterok:$array" \
  --output="$OUT/slurm-%j.out" --wrap 'exec tilefit merge "$OUT"/part-*.jsonl -o "$OUT/sweep.jsonl"')
echo "$array ${merge%%;*}"
