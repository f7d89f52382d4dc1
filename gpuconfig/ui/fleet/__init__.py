"""The Fleet tab: a folder of node reports as a heatmap of nodes by metrics, each node with its reasons."""
