#!/usr/bin/env python3
"""Adds a fixed delay to packets, for the namespace harness's delay faults (issue #14): the kernel
here has no netem (CONFIG_NET_SCH_NETEM, CONFIG_NET_SCH_FQ and CONFIG_NET_SCH_ETF are all unset in
/proc/config.gz), so no qdisc can hold a packet for a time. Instead an iptables NFQUEUE rule hands
the packets to this program (nfnetlink_queue, in the kernel as CONFIG_NETFILTER_NETLINK_QUEUE), which
keeps only their ids and accepts each one DELAY_MS after it arrived: the kernel holds the packet
meanwhile, so the socket sees it that much later, in order. Queue on an INPUT hook, not on the
sender's OUTPUT: a packet held there still counts against its socket's TCP small queues budget
(tcp_small_queue_check), which throttles the stream far below the link (netem orphans its packets
for that reason; scripts/netns-cluster.sh has the numbers).

    netns-delay.py QUEUE DELAY_MS      (root, inside the namespace whose rules queue to QUEUE)

Prints "ready" once bound (the rules use --queue-bypass, so until then packets pass undelayed) and
runs until killed. Verdicts go out in batches (NFQNL_MSG_VERDICT_BATCH accepts every id up to the
given one): the delay is the same for every packet, so the packets due are always the oldest ones.

Protocol: include/uapi/linux/netfilter/nfnetlink_queue.h and nfnetlink.h (message and attribute
numbers, struct layouts), net/netfilter/nfnetlink_queue.c (batch verdicts, copy modes).
"""
import collections
import errno
import os
import select
import socket
import struct
import sys
import time

NETLINK_NETFILTER = 12
NFNL_SUBSYS_QUEUE = 3
NFQNL_MSG_PACKET, NFQNL_MSG_CONFIG, NFQNL_MSG_VERDICT_BATCH = 0, 2, 3
NFQA_CFG_CMD, NFQA_CFG_PARAMS, NFQA_CFG_QUEUE_MAXLEN, NFQA_CFG_MASK, NFQA_CFG_FLAGS = 1, 2, 3, 4, 5
NFQNL_CFG_CMD_BIND = 1
NFQNL_COPY_META = 1  # ids and metadata only: no payload crosses into userspace
NFQA_CFG_F_FAIL_OPEN = 1  # a full queue accepts instead of dropping: the fault is delay, not loss
NFQA_PACKET_HDR, NFQA_VERDICT_HDR = 1, 2
NF_ACCEPT = 1
NLM_F_REQUEST, NLM_F_ACK = 1, 4
NLMSG_ERROR = 2
SO_RCVBUFFORCE = 33


def attr(kind, payload):
    n = 4 + len(payload)
    return struct.pack("=HH", n, kind) + payload + b"\0" * (-n % 4)


class Queue:
    def __init__(self, num):
        self.num, self.seq = num, 0
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_NETFILTER)
        self.sock.setsockopt(socket.SOL_SOCKET, SO_RCVBUFFORCE, 8 << 20)
        self.sock.bind((0, 0))

    def send(self, mtype, attrs, flags=NLM_F_REQUEST):
        self.seq += 1
        # nfgenmsg: family AF_UNSPEC, version NFNETLINK_V0, res_id = queue number (big-endian)
        body = struct.pack("=BB", socket.AF_UNSPEC, 0) + struct.pack(">H", self.num) + b"".join(attrs)
        hdr = struct.pack("=IHHII", 16 + len(body), (NFNL_SUBSYS_QUEUE << 8) | mtype, flags, self.seq, 0)
        self.sock.send(hdr + body)

    def config(self, attrs):
        self.send(NFQNL_MSG_CONFIG, attrs, NLM_F_REQUEST | NLM_F_ACK)
        data = self.sock.recv(65536)
        length, mtype = struct.unpack_from("=IH", data)
        if mtype == NLMSG_ERROR:
            err = struct.unpack_from("=i", data, 16)[0]
            if err:
                raise OSError(-err, f"nfqueue config: {os.strerror(-err)}")

    def bind(self, maxlen):
        self.config([attr(NFQA_CFG_CMD, struct.pack(">BBH", NFQNL_CFG_CMD_BIND, 0, socket.AF_INET))])
        self.config([attr(NFQA_CFG_PARAMS, struct.pack(">IB", 0, NFQNL_COPY_META)),
                     attr(NFQA_CFG_QUEUE_MAXLEN, struct.pack(">I", maxlen)),
                     attr(NFQA_CFG_MASK, struct.pack(">I", NFQA_CFG_F_FAIL_OPEN)),
                     attr(NFQA_CFG_FLAGS, struct.pack(">I", NFQA_CFG_F_FAIL_OPEN))])

    def packet_ids(self, data):
        """Ids of the queued packets in one recv()."""
        off = 0
        while off + 16 <= len(data):
            length, mtype = struct.unpack_from("=IH", data, off)
            if length < 16:
                break
            if mtype == (NFNL_SUBSYS_QUEUE << 8) | NFQNL_MSG_PACKET:
                a = off + 20  # nlmsghdr (16) + nfgenmsg (4)
                while a + 4 <= off + length:
                    alen, akind = struct.unpack_from("=HH", data, a)
                    if alen < 4:
                        break
                    if akind & 0x7FFF == NFQA_PACKET_HDR:
                        yield struct.unpack_from(">I", data, a + 4)[0]
                        break
                    a += (alen + 3) & ~3
            off += (length + 3) & ~3

    def accept_upto(self, pid):
        self.send(NFQNL_MSG_VERDICT_BATCH, [attr(NFQA_VERDICT_HDR, struct.pack(">II", NF_ACCEPT, pid))])


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    try:
        num, delay = int(sys.argv[1]), float(sys.argv[2]) / 1000.0
    except ValueError:
        sys.exit("netns-delay: QUEUE must be an integer and DELAY_MS a number")
    if not 0 <= num <= 65535 or not 0 < delay <= 10:
        sys.exit("netns-delay: QUEUE 0..65535, DELAY_MS in (0, 10000]")
    q = Queue(num)
    q.bind(maxlen=8192)
    held = collections.deque()  # (due, id), oldest first
    poller = select.poll()
    poller.register(q.sock, select.POLLIN)
    print("ready", flush=True)
    while True:
        now = time.monotonic()
        timeout = None if not held else max(0.0, (held[0][0] - now) * 1000)
        for _ in poller.poll(timeout):
            while True:
                try:
                    data = q.sock.recv(1 << 16, socket.MSG_DONTWAIT)
                except BlockingIOError:
                    break
                except OSError as e:  # ENOBUFS: the socket overflowed; those packets pass (fail open)
                    if e.errno == errno.ENOBUFS:
                        continue
                    raise
                t = time.monotonic()
                held.extend((t + delay, pid) for pid in q.packet_ids(data))
        now, last = time.monotonic(), None
        while held and held[0][0] <= now:
            last = held.popleft()[1]
        if last is not None:
            q.accept_upto(last)


if __name__ == "__main__":
    main()
