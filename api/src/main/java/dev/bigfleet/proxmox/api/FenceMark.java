package dev.bigfleet.proxmox.api;

/** The highest (epoch, sequence) accepted from one shard for one machine. */
public record FenceMark(long epoch, long sequence) {}
