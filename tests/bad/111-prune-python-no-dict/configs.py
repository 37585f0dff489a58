import triton
configs = [
    triton.Config(num_stages=3, num_warps=4),
]
