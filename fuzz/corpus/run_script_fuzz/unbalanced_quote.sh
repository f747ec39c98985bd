python3 -m verl.trainer.main_ppo \
    data.truncation='error \
    trainer.nnodes=1
