python3 -m verl.trainer.main_ppo \
    trainer.nnodes=1 \