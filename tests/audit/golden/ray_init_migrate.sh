exit 0
#!/usr/bin/env bash
# ncdx audit --migrate: overrides and env for verl 0.6.0 (fsdp trainer config)

# changes
#   ray_init.timeline_json_file=/tmp/t.json -> ray_kwargs.timeline_json_file=/tmp/t.json (renamed; ray_init.timeline_json_file exists 0.4.0-0.5.0)
#   ray_init.num_cpus=8 -> ray_kwargs.ray_init.num_cpus=8 (renamed; ray_init.num_cpus exists 0.4.0-0.5.0)

python3 -m verl.trainer.main_ppo \
    ray_kwargs.timeline_json_file=/tmp/t.json \
    ray_kwargs.ray_init.num_cpus=8 \
    actor_rollout_ref.rollout.name=vllm "$@"
