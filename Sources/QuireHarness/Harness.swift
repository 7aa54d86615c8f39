public enum QuireHarness {}
