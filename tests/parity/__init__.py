"""Every metric against its reference tool on real data, and the BLEU paper's examples."""
