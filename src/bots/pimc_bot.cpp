namespace tarneeb::bots { void pimc_placeholder() {} }
