import Coffer
@main struct Main { static func main() { print("coffer") } }
