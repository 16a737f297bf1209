{
  "targets": [
    {
      "target_name": "echo_relay",
      "sources": ["echo_relay.c"],
      "cflags": ["-O2", "-Wall", "-Wextra", "-std=gnu11"],
      "libraries": ["-lpthread"]
    },
    {
      "target_name": "helper_threads",
      "sources": ["helper_threads.c"],
      "cflags": ["-O2", "-Wall", "-Wextra", "-std=gnu11"]
    }
  ]
}
