#!/usr/bin/env bash
# A recipe entry point (recipe/ is not in verl's wheel): not audited as PPO.
python3 -m recipe.dapo.main_dapo \
    data.train_batch_size=512 \
    actor_rollout_ref.rollout.n=16
